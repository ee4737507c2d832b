/**
 * A SpreadsheetBench agent's trajectory, one step per stage record of the task's ledger (its tokens, cost, time and
 * outcome), with the prompt and reply and the executions that stage made. How the agents name things:
 * - single: stage `generate` asks conversation `main` once; stage `execute` runs the solution on the remaining test
 *   cases (executions `final-tc<N>`).
 * - row_exec / react_exec / row_react_exec: stage `round-<r>` is exchange r of `main` and execution `round-<r>`.
 * - sheetcopilot: stage `<s>` (understand, plan, implement, validate) is conversation `copilot-<s>` (its last
 *   exchange: earlier messages are the context it was given) and executions `<s>-…`; stage `final-tc<N>` holds
 *   execution `final-tc<N>` and the revisions `copilot-revise-tc<N>-<k>`.
 * - checked_vote: stage `cand-<k>.<a>` is exchange a of conversation `cand-<k>` (a = 0 the first reply, then the repairs,
 *   whose prompt is the failed check's feedback) and executions `cand-<k>.<a>-tc<N>`; its outcome is the check's verdict;
 *   stage `vote` says which candidate was submitted and why.
 * An execution no stage claims belongs to the `execute` stage (the solution run on the test cases the agent skipped).
 */
import path from 'node:path';
import { readRequiredJson } from '../../../lib/json';
import { namesInFolder } from '../../../lib/runStore/files';
import { conversationRecordSchema, executionRecordSchema } from './trajectorySchema';
import type { StageRecord } from '../../../contracts/taskResult';
import { exchangesOf, type ExchangeView, type ExecutionView, type TrajectoryStep } from '../../report/taskView';
import { extractPythonCode } from '../../codeAgent/codeExtraction';

type Conversations = Map<string, { role: string; content: unknown; reasoning?: unknown }[]>;

export async function trajectoryOf(taskDir: string, stages: StageRecord[]): Promise<TrajectoryStep[]> {
  const conversations = await conversationsOf(taskDir);
  const executions = await executionsOf(taskDir);
  const claimed = new Set<string>();
  const steps = stages.map((s): TrajectoryStep => {
    const own = executions.filter((e) => e.label === s.stage || e.label.startsWith(`${s.stage}-`));
    for (const e of own) claimed.add(e.label);
    const exchanges = exchangesFor(s.stage, conversations);
    const reply = exchanges[exchanges.length - 1]?.reply;
    const code = own[0]?.code ?? (reply ? extractPythonCode(reply) : undefined);
    return {
      stage: s.stage,
      outcome: s.outcome,
      llmCalls: s.llmCalls,
      inputTokens: s.usage.inputTokens,
      outputTokens: s.usage.outputTokens,
      costUsd: s.costUsd,
      wallMs: s.wallMs,
      exchanges,
      ...(code ? { code } : {}),
      executions: own,
    };
  });
  const execute = steps.find((s) => s.stage === 'execute');
  if (execute) execute.executions.push(...executions.filter((e) => !claimed.has(e.label)));
  return steps;
}

function exchangesFor(stage: string, conversations: Conversations): ExchangeView[] {
  const main = () => exchangesOf('main', conversations.get('main') ?? []);
  if (stage === 'generate') return main();
  const round = /^round-(\d+)$/.exec(stage);
  if (round) return main().slice(Number(round[1]) - 1, Number(round[1]));
  const candidate = /^((?:cand|formula)-\d+)\.(\d+)$/.exec(stage);
  if (candidate) {
    const attempt = Number(candidate[2]);
    return exchangesOf(candidate[1], conversations.get(candidate[1]) ?? []).slice(attempt, attempt + 1);
  }
  const copilot = conversations.get(`copilot-${stage}`);
  if (copilot) return exchangesOf(`copilot-${stage}`, copilot).slice(-1);
  const finalCase = /^final-tc(\d+)$/.exec(stage);
  if (finalCase) {
    const prefix = `copilot-revise-tc${finalCase[1]}-`;
    const names = [...conversations.keys()]
      .filter((n) => n.startsWith(prefix))
      .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
    return names.flatMap((n) => exchangesOf(n, conversations.get(n)!).slice(-1));
  }
  return [];
}

/** tasks/<key>/executions/<label>.json, in label order (round-1, round-2, …, final-tc1, …). */
async function executionsOf(taskDir: string): Promise<ExecutionView[]> {
  const dir = path.join(taskDir, 'executions');
  const names = (await namesInFolder(dir)).filter((n) => n.endsWith('.json'));
  const records = await Promise.all(names.map((n) => readRequiredJson(path.join(dir, n), executionRecordSchema)));
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return records
    .map((r, i): ExecutionView => ({
      label: text(r.label) || names[i].slice(0, -'.json'.length),
      ...(typeof r.testCase === 'number' ? { testCase: r.testCase } : {}),
      code: text(r.code),
      stdout: text(r.stdout),
      stderr: text(r.stderr),
      ...(text(r.error) ? { error: text(r.error) } : {}),
      ...(r.timedOut === true ? { timedOut: true } : {}),
      ...(typeof r.durationMs === 'number' ? { durationMs: r.durationMs } : {}),
    }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
}

/** The task's conversations (tasks/<key>/conversations/<name>.json), by name. */
async function conversationsOf(taskDir: string): Promise<Conversations> {
  const dir = path.join(taskDir, 'conversations');
  const names = (await namesInFolder(dir)).filter((n) => n.endsWith('.json')).sort();
  const out: Conversations = new Map();
  for (const name of names)
    out.set(name.slice(0, -'.json'.length), await readRequiredJson(path.join(dir, name), conversationRecordSchema));
  return out;
}
