import type { RunManifest } from '../../../lib/runStore/manifest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../../config/paths';
import type { TaskResult } from '../../../contracts/taskResult';
import type { LoadedRun, LoadedTask } from './load';
import type { Transcript } from './schemas';
import { contentText } from './content';
import { mean } from '../../report/stats';
import {
  buildInspectEvalLog,
  inspectSample,
  manifestSpec,
  modelUsage,
  stderrOfMean,
  writeInspectEvalLog,
} from '../../report/inspectEvalLog';
import { failureText, reasonsText } from '../../report/format';

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

export async function writeInspectLog(
  run: LoadedRun,
  transcripts: Map<string, Transcript>,
  logsDir: string,
): Promise<string> {
  return writeInspectEvalLog(buildEvalLog(run, transcripts, await sheetbenchVersion()), logsDir);
}

export function buildEvalLog(run: LoadedRun, transcripts: Map<string, Transcript>, version: string) {
  const m = run.manifest;
  const fromManifest = manifestSpec(m, run.lastResultAt);
  // One sample per attempt: a run with repeats has epochs 1..K of each task (Inspect's own notion of repeats).
  const attempts = run.tasks.flatMap((t): Attempt[] => [
    ...(t.result ? [{ task: t, key: t.key, epoch: 1, result: t.result }] : []),
    ...t.attempts.map((a) => ({ task: t, key: a.key, epoch: a.epoch, result: a.result })),
  ]);
  const soft = attempts.map((a) => a.result.soft);
  return buildInspectEvalLog({
    ...fromManifest,
    taskName: INSPECT_TASK_NAME,
    taskArgs: { agent: m.agent },
    dataset: {
      name: INSPECT_TASK_NAME,
      ...(m.datasetDir ? { location: m.datasetDir } : {}),
      samples: run.tasks.length,
      sample_ids: run.tasks.map((t) => t.key),
      shuffled: false,
    },
    epochs: m.epochs ?? 1,
    generateConfig: generateConfig(m.llm),
    packages: { sheetbench: version },
    metadata: {
      run_id: m.runId,
      agent: m.agent,
      scoring_mode: m.scoringMode ?? null,
      experiment_hash: m.experimentHash ?? null,
    },
    scorer: {
      name: SCORER_NAME,
      options: { scoring_mode: m.scoringMode ?? 'official' },
      metrics: ['accuracy', 'hard_accuracy', 'stderr'],
    },
    metrics: {
      accuracy: mean(soft),
      hard_accuracy: mean(attempts.map((a) => a.result.hard)),
      stderr: stderrOfMean(soft),
    },
    usage: modelUsage(attempts.map((a) => a.result)),
    samples: attempts.map((a) => sample(a, transcripts.get(a.key) ?? null, fromManifest.model)),
  });
}

interface Attempt {
  task: LoadedTask;
  key: string;
  epoch: number;
  result: TaskResult;
}

function sample(a: Attempt, transcript: Transcript | null, model: string) {
  const { task: t, result: r } = a;
  const messages = chatMessages(t, a.key, transcript, model);
  const last = [...messages].reverse().find((msg) => msg.role === 'assistant');
  return inspectSample({
    id: t.key,
    epoch: a.epoch,
    input: t.task.instruction,
    target: t.task.answer_position,
    messages,
    reply: last,
    completion: last ? last.content : '',
    model,
    result: r,
    scorer: SCORER_NAME,
    score: {
      value: r.soft,
      answer: a.epoch === 1 ? t.outputFiles.join(', ') : `epochs/${a.epoch}/outputs`,
      explanation: [failureText(r), reasonsText(r)].filter(Boolean).join('; ') || 'all test cases passed',
      metadata: { test_case_results: r.testCaseResults, hard: r.hard, reasons: r.reasons },
    },
    metadata: sampleMetadata(t, r, transcript),
  });
}

function sampleMetadata(t: LoadedTask, r: TaskResult, transcript: Transcript | null) {
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

type InspectMessage = {
  id: string;
  content: string;
  source?: 'input' | 'generate';
  role: 'system' | 'user' | 'assistant';
  model?: string;
};

/** Transcript messages with Inspect roles (ids from the attempt's key); a role Inspect lacks becomes a user message tagged with it. */
function chatMessages(t: LoadedTask, key: string, transcript: Transcript | null, model: string): InspectMessage[] {
  const raw = transcript?.messages.length ? transcript.messages : [{ role: 'user', content: t.task.instruction }];
  let seenUser = false;
  return raw.map((msg, i) => {
    const id = `${key}-m${i + 1}`;
    const text = contentText(msg.content);
    if (msg.role === 'assistant') return { id, content: text, source: 'generate', role: 'assistant', model };
    if (msg.role === 'system') return { id, content: text, role: 'system' };
    const source = seenUser ? undefined : 'input';
    seenUser = true;
    const content = msg.role === 'user' ? text : `[${msg.role}] ${text}`;
    return source ? { id, content, source, role: 'user' } : { id, content, role: 'user' };
  });
}

function generateConfig(llm: RunManifest['llm']): Record<string, number> {
  return {
    ...(typeof llm.temperature === 'number' ? { temperature: llm.temperature } : {}),
    ...(typeof llm.maxTokens === 'number' ? { max_tokens: llm.maxTokens } : {}),
  };
}

async function sheetbenchVersion(): Promise<string> {
  const pkgPath = path.join(REPO_ROOT, 'package.json');
  try {
    const pkg = JSON.parse(await readFile(pkgPath, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
