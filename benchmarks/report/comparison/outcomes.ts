/**
 * A run folder read as outcomes for statistics, for any benchmark: each planned task with the soft/hard score, cost
 * and tokens of each recorded attempt (one per task, or K with `run --epochs K`). Every benchmark writes
 * `results/<key>.json` with `soft`/`hard` (the analysis suite: `pass`), `costUsd` and `usage`.
 */
import path from 'node:path';
import { z } from 'zod';
import { readManifest, type RunManifest } from '../../../lib/runStore/manifest';
import { RunLayout } from '../../../lib/runStore/runLayout';
import { parseAttemptKey, taskKey } from '../../../lib/runStore/taskRecord';
import { namesInFolder, statIfPresent } from '../../../lib/runStore/files';
import { readRequiredJson } from '../../../lib/json';

export interface AttemptOutcome {
  /** The attempt's key (`<task>` or `<task>@<epoch>`) and epoch. */
  key: string;
  epoch: number;
  soft: number;
  hard: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  llmCalls: number;
  failureClass?: string;
}

export interface TaskOutcomes {
  key: string;
  /** The group a report splits by: SpreadsheetBench's instruction type, DSBench's answer type, the suite's level. */
  group: string;
  /** Recorded attempts, by epoch. */
  attempts: AttemptOutcome[];
}

export interface RunOutcomes {
  dir: string;
  manifest: RunManifest;
  epochs: number;
  tasks: TaskOutcomes[];
  plannedAttempts: number;
  recordedAttempts: number;
  /** Finished: summary.json written after the last result. Otherwise why it is still in progress. */
  inProgress?: string;
  /** Tasks to report without (e.g. known data errors), when the run has any. */
  excluded?: { why: string; tasks: string[] };
  /** How its answers were judged (the benchmark's `judgeSettings`), when a judge scores them. */
  judge?: Record<string, string>[];
}

/** A run folder that cannot be read as a run: the message names the folder and the cause. */
export class RunOutcomesError extends Error {
  override name = 'RunOutcomesError';
}

const resultSchema = z.looseObject({
  taskId: z.string().min(1),
  id: z.union([z.number(), z.string()]).optional(),
  epoch: z.number().int().positive().optional(),
  soft: z.number().optional(),
  hard: z.number().optional(),
  pass: z.boolean().optional(),
  costUsd: z.number().default(0),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  llmCalls: z.number().default(0),
  failure: z.object({ class: z.string() }).loose().optional(),
  instructionType: z.string().optional(),
  answerType: z.string().optional(),
  level: z.union([z.number(), z.string()]).optional(),
});

type Result = z.infer<typeof resultSchema>;

/** tasks.json of any benchmark: records with an id (their group fields are read by `groupOf`). */
const taskListSchema = z.array(z.looseObject({ id: z.union([z.number(), z.string()]) }));

export interface LoadOptions {
  /** Task ids the benchmark sets aside for this run's edition (reported with and without them). */
  exclude?: { why: string; ids: readonly string[] };
  /** The run's judge settings (the benchmark reads them), carried to the metrics and pairs. */
  judge?: Record<string, string>[];
}

export async function loadRunOutcomes(dir: string, opts: LoadOptions = {}): Promise<RunOutcomes> {
  let manifest: RunManifest;
  try {
    manifest = await readManifest(dir);
  } catch (err) {
    throw new RunOutcomesError(`${dir} is not a run folder: ${(err as Error).message}`);
  }
  const layout = new RunLayout(dir);
  const records = await readRequiredJson(layout.taskListPath, taskListSchema).catch((err: Error) => {
    throw new RunOutcomesError(`run ${manifest.runId}: cannot read ${layout.taskListPath}: ${err.message}`);
  });
  const epochs = manifest.epochs ?? 1;
  const tasks = new Map<string, TaskOutcomes>(
    records.map((r) => [taskKey(r.id), { key: taskKey(r.id), group: groupOf(r), attempts: [] }]),
  );
  const { results, newest } = await readResults(manifest, layout);
  for (const r of results) {
    const { taskKey: key, epoch } = attemptOf(r, epochs);
    const task = tasks.get(key);
    if (!task) continue; // a result of a task the run no longer lists
    task.group = r.instructionType ?? r.answerType ?? task.group;
    task.attempts.push(outcomeOf(r, epoch));
  }
  for (const t of tasks.values()) t.attempts.sort((a, b) => a.epoch - b.epoch);
  const plannedAttempts = tasks.size * epochs;
  const recordedAttempts = results.filter((r) => tasks.has(attemptOf(r, epochs).taskKey)).length;
  const inProgress = await progressNote(layout, plannedAttempts, recordedAttempts, newest);
  const excludedIds = new Set(opts.exclude?.ids ?? []);
  const excluded = [...tasks.keys()].filter((k) => excludedIds.has(k));
  return {
    dir,
    manifest,
    epochs,
    tasks: [...tasks.values()],
    plannedAttempts,
    recordedAttempts,
    ...(inProgress ? { inProgress } : {}),
    ...(excluded.length && opts.exclude ? { excluded: { why: opts.exclude.why, tasks: excluded } } : {}),
    ...(opts.judge ? { judge: opts.judge } : {}),
  };
}

function groupOf(record: Record<string, unknown>): string {
  const g =
    record.instruction_type ??
    record.answerType ??
    (record.level !== undefined ? `level ${String(record.level)}` : undefined);
  return typeof g === 'string' ? g : 'all';
}

function attemptOf(r: Result, epochs: number): { taskKey: string; epoch: number } {
  const parsed = epochs > 1 ? parseAttemptKey(r.taskId) : { taskKey: r.taskId, epoch: 1 };
  return { taskKey: r.id !== undefined ? taskKey(r.id) : parsed.taskKey, epoch: r.epoch ?? parsed.epoch };
}

function outcomeOf(r: Result, epoch: number): AttemptOutcome {
  const passed = r.pass === undefined ? undefined : r.pass ? 1 : 0;
  return {
    key: r.taskId,
    epoch,
    soft: r.soft ?? passed ?? 0,
    hard: r.hard ?? passed ?? 0,
    costUsd: r.costUsd,
    inputTokens: r.usage?.inputTokens ?? 0,
    outputTokens: r.usage?.outputTokens ?? 0,
    llmCalls: r.llmCalls,
    ...(r.failure ? { failureClass: r.failure.class } : {}),
  };
}

async function readResults(manifest: RunManifest, layout: RunLayout): Promise<{ results: Result[]; newest: number }> {
  const names = (await namesInFolder(layout.resultsDir)).filter((n) => n.endsWith('.json'));
  const results: Result[] = [];
  // Results are written by rename (write-then-rename), so the folder's mtime is when the newest one arrived.
  const newest = (await statIfPresent(layout.resultsDir))?.mtimeMs ?? 0;
  for (let i = 0; i < names.length; i += READ_AT_ONCE) {
    const batch = await Promise.all(
      names.slice(i, i + READ_AT_ONCE).map((name) => readResult(manifest, path.join(layout.resultsDir, name))),
    );
    results.push(...batch);
  }
  return { results, newest };
}

/** Result files read concurrently (912 small files: the disk's queue, not one round trip after another). */
const READ_AT_ONCE = 64;

async function readResult(manifest: RunManifest, file: string): Promise<Result> {
  try {
    return await readRequiredJson(file, resultSchema);
  } catch (err) {
    throw new RunOutcomesError(`run ${manifest.runId}: not a task result: ${(err as Error).message}`);
  }
}

/** A run is finished when its summary.json was written after its last result (a retry rewrites results, then the summary). */
async function progressNote(
  layout: RunLayout,
  planned: number,
  recorded: number,
  newestResult: number,
): Promise<string | undefined> {
  const summary = await statIfPresent(layout.summaryPath);
  if (summary && summary.mtimeMs >= newestResult) return undefined;
  return `${recorded} of ${planned} attempts recorded${summary ? ', results written after its summary' : ', no summary.json yet'}`;
}
