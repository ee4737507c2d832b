import type { RunManifest } from '../run/manifest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TaskResult } from '../run/taskResult';
import type { LoadedRun, LoadedTask } from './load';
import type { Transcript } from './schemas';
import { contentText } from './content';
import { mean, sum } from './summary';
import { evalIdentity, evalLogFileName, evalStats, parseIsoAsUtc, utcIso } from './inspectIds';
import { failureText, reasonsText } from './format';

/**
 * The run as an Inspect AI eval log (`.json`, LOG_SCHEMA_VERSION 2) that `inspect view` lists and opens.
 * Key order matters (Inspect's header reader stops at `samples`), every value is finite, and the full serialized
 * shape is written (see docs/inspect-logs-and-dsbench.md §2). One sample per finished task; pending tasks are left
 * out and make the log's status "started". Tasks that failed for a non-scoring reason keep their score (0 under the
 * official rules) and carry the failure in metadata and the score explanation, so the log's accuracy equals the
 * run's soft score.
 */

export const INSPECT_TASK_NAME = 'spreadsheetbench';
export const SCORER_NAME = 'spreadsheetbench';

interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  total_cost: number;
}

export async function writeInspectLog(run: LoadedRun, transcripts: Map<string, Transcript>, logsDir: string): Promise<string> {
  const log = buildEvalLog(run, transcripts, await sheetbenchVersion());
  await mkdir(logsDir, { recursive: true });
  const file = path.join(logsDir, evalLogFileName(parseIsoAsUtc(run.manifest.createdAt), INSPECT_TASK_NAME, log.eval.task_id));
  await writeFile(file, JSON.stringify(log, finiteOnly, 2) + '\n');
  return file;
}

export function buildEvalLog(run: LoadedRun, transcripts: Map<string, Transcript>, version: string) {
  const m = run.manifest;
  const model = inspectModelName(m.llm.model, m.llm.provider);
  const finished = run.tasks.filter((t): t is LoadedTask & { result: TaskResult } => t.result !== undefined);
  const complete = finished.length === run.tasks.length;
  const created = utcIso(parseIsoAsUtc(m.createdAt));
  const samples = finished.map((t) => sample(t, transcripts.get(t.key) ?? null, model));
  return {
    version: 2,
    status: complete ? 'success' : 'started',
    eval: {
      ...evalIdentity(m.runId, INSPECT_TASK_NAME, created),
      task_args: { agent: m.agent },
      task_args_passed: {},
      solver: m.agent,
      dataset: {
        name: INSPECT_TASK_NAME,
        ...(m.datasetDir ? { location: m.datasetDir } : {}),
        samples: run.tasks.length,
        sample_ids: run.tasks.map((t) => t.key),
        shuffled: false,
      },
      model,
      model_generate_config: generateConfig(m.llm),
      model_args: {},
      config: { epochs: 1 },
      packages: { sheetbench: version },
      metadata: { run_id: m.runId, agent: m.agent, scoring_mode: m.scoringMode ?? null, experiment_hash: m.experimentHash ?? null },
      scorers: [
        {
          name: SCORER_NAME,
          options: { scoring_mode: m.scoringMode ?? 'official' },
          metrics: [{ name: 'accuracy', options: {} }, { name: 'hard_accuracy', options: {} }, { name: 'stderr', options: {} }],
          metadata: {},
        },
      ],
    },
    plan: { name: 'plan', steps: [{ solver: m.agent, params: {}, params_passed: {} }], config: {} },
    ...(finished.length > 0 ? { results: results(finished.map((t) => t.result), run.tasks.length) } : {}),
    ...evalStats(created, complete && run.lastResultAt ? utcIso(run.lastResultAt) : '', { [model]: usageOf(finished.map((t) => t.result)) }),
    samples,
  };
}

/** Inspect names models `provider/model`. */
export function inspectModelName(model: string, provider: string): string {
  if (model.includes('/')) return model;
  return `${provider}/${model}`;
}

/** Sample standard error of the mean (ddof 1), 0 for fewer than two values, as Inspect's `stderr()`. */
export function stderrOfMean(values: number[]): number {
  if (values.length < 2) return 0;
  const mu = mean(values);
  const variance = sum(values.map((v) => (v - mu) ** 2)) / (values.length - 1);
  return Math.sqrt(variance / values.length);
}

function results(finished: TaskResult[], total: number) {
  const metric = (name: string, value: number) => ({ name, value, params: {} });
  const soft = finished.map((r) => r.soft);
  return {
    total_samples: total,
    completed_samples: finished.length,
    scores: [
      {
        name: SCORER_NAME,
        scorer: SCORER_NAME,
        scored_samples: finished.length,
        unscored_samples: 0,
        params: {},
        metrics: {
          accuracy: metric('accuracy', mean(soft)),
          hard_accuracy: metric('hard_accuracy', mean(finished.map((r) => r.hard))),
          stderr: metric('stderr', stderrOfMean(soft)),
        },
      },
    ],
  };
}

function sample(t: LoadedTask & { result: TaskResult }, transcript: Transcript | null, model: string) {
  const r = t.result;
  const messages = chatMessages(t, transcript, model);
  const last = [...messages].reverse().find((msg) => msg.role === 'assistant');
  const usage = usageOf([r]);
  const seconds = r.wallMs / 1000;
  return {
    id: t.key,
    epoch: 1,
    input: t.task.instruction,
    target: t.task.answer_position,
    messages,
    output: {
      model,
      choices: last ? [{ message: last, stop_reason: 'stop' }] : [],
      completion: last ? last.content : '',
      usage,
      time: seconds,
    },
    scores: {
      [SCORER_NAME]: {
        value: r.soft,
        answer: t.outputFiles.join(', '),
        explanation: [failureText(r), reasonsText(r)].filter(Boolean).join('; ') || 'all test cases passed',
        metadata: { test_case_results: r.testCaseResults, hard: r.hard, reasons: r.reasons },
        history: [],
      },
    },
    metadata: sampleMetadata(t, transcript),
    store: {},
    events: [],
    model_usage: { [model]: usage },
    role_usage: {},
    total_time: seconds,
    working_time: seconds,
    attachments: {},
  };
}

function sampleMetadata(t: LoadedTask & { result: TaskResult }, transcript: Transcript | null) {
  const r = t.result;
  return {
    instruction_type: t.task.instruction_type,
    spreadsheet_path: t.task.spreadsheet_path,
    ...(t.task.answer_sheet !== undefined ? { answer_sheet: t.task.answer_sheet } : {}),
    ...(t.task.data_position !== undefined ? { data_position: t.task.data_position } : {}),
    ...(r.failure ? { failure_class: r.failure.class, failure_message: r.failure.message } : {}),
    llm_calls: r.llmCalls,
    cost_usd: r.costUsd,
    stages: r.stages,
    executions: transcript?.executions ?? [],
  };
}

type InspectMessage = { id: string; content: string; source?: 'input' | 'generate'; role: 'system' | 'user' | 'assistant'; model?: string };

/** Transcript messages with Inspect roles; a role Inspect lacks becomes a user message tagged with it. */
function chatMessages(t: LoadedTask, transcript: Transcript | null, model: string): InspectMessage[] {
  const raw = transcript?.messages.length ? transcript.messages : [{ role: 'user', content: t.task.instruction }];
  let seenUser = false;
  return raw.map((msg, i) => {
    const id = `${t.key}-m${i + 1}`;
    const text = contentText(msg.content);
    if (msg.role === 'assistant') return { id, content: text, source: 'generate', role: 'assistant', model };
    if (msg.role === 'system') return { id, content: text, role: 'system' };
    const source = seenUser ? undefined : 'input';
    seenUser = true;
    const content = msg.role === 'user' ? text : `[${msg.role}] ${text}`;
    return source ? { id, content, source, role: 'user' } : { id, content, role: 'user' };
  });
}

function usageOf(results: TaskResult[]): ModelUsage {
  const input = sum(results.map((r) => r.usage.inputTokens));
  const output = sum(results.map((r) => r.usage.outputTokens));
  return { input_tokens: input, output_tokens: output, total_tokens: input + output, total_cost: sum(results.map((r) => r.costUsd)) };
}

function generateConfig(llm: RunManifest['llm']): Record<string, number> {
  return {
    ...(typeof llm.temperature === 'number' ? { temperature: llm.temperature } : {}),
    ...(typeof llm.maxTokens === 'number' ? { max_tokens: llm.maxTokens } : {}),
  };
}

/** JSON replacer: Inspect rejects null metric/score values, which is what NaN/Infinity would become. */
function finiteOnly(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`non-finite number in Inspect log (${_key})`);
  return value;
}

async function sheetbenchVersion(): Promise<string> {
  const pkgPath = new URL('../package.json', import.meta.url);
  try {
    const pkg = JSON.parse(await readFile(pkgPath, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
