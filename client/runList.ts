import path from 'node:path';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { namesInFolder, pathExists } from '../lib/runStore/files';
import { CorruptFileError, readJsonIfPresent, warnCorruptFile } from '../lib/json';
import { z } from 'zod';
import { SA } from '../lib/temporal/searchAttributes';
import { progressQuery, type RunProgress } from '../contracts/run';
import { runManifestSchema } from '../lib/runStore/manifest';
import { holdsRunJson, located, recordedFolder, recordedIn } from './runLocation';

/** One benchmark run as the runs view lists it. */
export interface RunListEntry {
  id: string;
  benchmark: string;
  agent: string;
  model: string;
  /** The workflow's status in lower case (running, completed, failed, ...), or `unknown` when Temporal does not know the run. */
  status: string;
  createdAt?: string;
  progress?: { done: number; total: number; running: number; failed: number };
  soft?: number;
  hard?: number;
  /** Set by benchmarks scored by accuracy rather than soft/hard (a `accuracy` field in summary.json). */
  accuracy?: number;
  costUsd?: number;
  paused?: boolean;
  /** The run folder has report.html (served by the runs route). */
  hasReport: boolean;
  workflowId?: string;
}

export interface RunListSource {
  runsDir: string;
  client?: Client;
  /** Where relative memo paths are joined (config `artifacts.root`): a run made with `run --out DIR` is read there. */
  artifactsRoot?: string;
  /** How long to wait for a running workflow's progress query (it needs a worker) before listing it without progress. */
  queryTimeoutMs?: number;
  /** How long to wait for Temporal's list of run workflows (an unreachable server is said, not waited on). */
  listTimeoutMs?: number;
}

/**
 * Runs from the run folders, joined with what Temporal's visibility says about their workflows (newest first); a run
 * whose folder is elsewhere is read from the folder its workflow records (`client/runLocation`, as its pages find it).
 */
export async function listRuns(src: RunListSource): Promise<{ runs: RunListEntry[]; temporalError?: string }> {
  const byId = new Map<string, RunListEntry>();
  for (const entry of await runsFromFolders(src.runsDir)) byId.set(entry.id, entry);
  let temporalError: string | undefined;
  if (src.client) {
    try {
      const client = src.client;
      const listed = await client.withDeadline(Date.now() + (src.listTimeoutMs ?? 5000), () => runWorkflows(client));
      for (const info of listed) {
        const entry =
          byId.get(info.workflowId) ?? (await fromRecordedFolder(info, src.artifactsRoot)) ?? fromWorkflow(info);
        byId.set(entry.id, { ...entry, status: info.status.name.toLowerCase(), workflowId: info.workflowId });
        if (info.status.name === 'RUNNING' || info.status.name === 'COMPLETED') {
          const p = await progressOf(src.client, info, src.queryTimeoutMs ?? 2000);
          if (p) Object.assign(byId.get(entry.id)!, fromProgress(p, byId.get(entry.id)!));
        }
      }
    } catch (err) {
      temporalError = `Temporal did not answer: ${(err as Error).message}`;
    }
  }
  const runs = [...byId.values()].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  return { runs, ...(temporalError ? { temporalError } : {}) };
}

async function runsFromFolders(runsDir: string): Promise<RunListEntry[]> {
  const names = await namesInFolder(runsDir);
  const entries = await Promise.all(names.map((name) => runFromFolder(path.join(runsDir, name))));
  return entries.filter((e): e is RunListEntry => e !== undefined);
}

/**
 * summary.json as the list reads it: benchmarks write different summaries, so every field is optional (a number that
 * was NaN is written as null).
 */
const listedSummarySchema = z.looseObject({
  tasks: z.number().nullish(),
  attempts: z.number().nullish(),
  scored: z.number().nullish(),
  failed: z.number().nullish(),
  costUsd: z.number().nullish(),
  accuracy: z.number().nullish(),
  overall: z.looseObject({ soft: z.number().nullish(), hard: z.number().nullish() }).nullish(),
});
type ListedSummary = z.infer<typeof listedSummarySchema>;

/**
 * A folder without run.json (a regular file) is not a run; one whose run.json (or summary.json) is corrupt is reported,
 * not hidden.
 */
async function runFromFolder(runDir: string): Promise<RunListEntry | undefined> {
  if (!(await holdsRunJson(runDir))) return undefined; // as its pages: a run.json that is a link is no run
  const m = await readJsonIfPresent(path.join(runDir, 'run.json'), runManifestSchema).catch(
    reportCorrupt('run not listed'),
  );
  if (!m) return undefined;
  const summary = await readJsonIfPresent(path.join(runDir, 'summary.json'), listedSummarySchema).catch(
    reportCorrupt('run listed without its scores'),
  );
  return {
    id: m.runId,
    benchmark: m.benchmark,
    agent: m.agent,
    model: m.llm.model,
    status: 'unknown',
    createdAt: m.createdAt,
    hasReport: await pathExists(path.join(runDir, 'report.html')),
    ...(summary ? fromSummary(summary) : {}),
  };
}

/** A corrupt file in a listed folder is reported on stderr and read as absent: one bad run does not hide the others. */
function reportCorrupt(consequence: string): (err: unknown) => undefined {
  return (err) => {
    if (!(err instanceof CorruptFileError)) throw err;
    warnCorruptFile(err, consequence);
    return undefined;
  };
}

/** Scores and spend from summary.json; benchmarks write different summaries, so every field is optional here. */
function fromSummary(summary: ListedSummary): Partial<RunListEntry> {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  // A run with repeats counts attempts (tasks × epochs).
  const tasks = num(summary.attempts) ?? num(summary.tasks);
  return {
    ...(tasks !== undefined
      ? { progress: { done: num(summary.scored) ?? tasks, total: tasks, running: 0, failed: num(summary.failed) ?? 0 } }
      : {}),
    soft: num(summary.overall?.soft),
    hard: num(summary.overall?.hard),
    costUsd: num(summary.costUsd),
    accuracy: num(summary.accuracy),
  };
}

async function runWorkflows(client: Client): Promise<WorkflowExecutionInfo[]> {
  const out: WorkflowExecutionInfo[] = [];
  // A run's workflow id is its run id; retries (`<id>/retry-N`) are shown through their run.
  for await (const info of client.workflow.list({ query: "WorkflowType = 'benchmarkRun'" })) {
    if (info.typedSearchAttributes.get(SA.runId) === info.workflowId) out.push(info);
  }
  return out;
}

/** A run whose folder is elsewhere (`run --out DIR`): read from the folder its workflow records, when that holds it. */
async function fromRecordedFolder(
  info: WorkflowExecutionInfo,
  artifactsRoot: string | undefined,
): Promise<RunListEntry | undefined> {
  const recorded = recordedIn(info.memo);
  if (!recorded) return undefined;
  const folder = await recordedFolder(recorded, info.workflowId, artifactsRoot);
  return located(folder) ? runFromFolder(folder.dir) : undefined;
}

function fromWorkflow(info: WorkflowExecutionInfo): RunListEntry {
  const sa = info.typedSearchAttributes;
  return {
    id: info.workflowId,
    benchmark: sa.get(SA.benchmark) ?? '?',
    agent: sa.get(SA.agent) ?? '?',
    model: sa.get(SA.model) ?? '?',
    status: info.status.name.toLowerCase(),
    createdAt: info.startTime.toISOString(),
    hasReport: false,
  };
}

async function progressOf(
  client: Client,
  info: WorkflowExecutionInfo,
  timeoutMs: number,
): Promise<RunProgress | undefined> {
  const handle = client.workflow.getHandle(info.workflowId);
  // A deadline, not a race: the call (and its retries) ends when the time is up.
  const answer = () =>
    info.status.name === 'RUNNING' ? handle.query(progressQuery) : (handle.result() as Promise<RunProgress>);
  return client.withDeadline(Date.now() + timeoutMs, answer).catch(() => undefined); // no worker answered in time: listed without progress
}

function fromProgress(p: RunProgress, entry: RunListEntry): Partial<RunListEntry> {
  return {
    progress: { done: p.done, total: p.total, running: p.running, failed: p.failed },
    soft: entry.soft ?? p.passRateSoft,
    hard: entry.hard ?? p.passRateHard,
    costUsd: p.costUsd,
    paused: p.paused,
  };
}
