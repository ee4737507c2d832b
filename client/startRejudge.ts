import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Config } from '../config/schema';
import type { RunManifest } from '../lib/runStore/manifest';
import path from 'node:path';
import { writeJsonAtomic } from '../lib/runStore/files';
import { BENCHMARKS, benchmarkNamed } from '../benchmarks';
import type { RejudgeInput } from '../contracts/run';

export interface StartedRejudge {
  handle: WorkflowHandle;
  count: number;
  /** The rejudge's tag: its workflow id's tail and the name of its task list (`<tag>.json`) in the run folder. */
  tag: string;
}

/** A run of a benchmark whose answers are not judged (nothing to judge again). */
export class NotJudgedError extends Error {
  override name = 'NotJudgedError';
}

/**
 * Starts a rejudge of a run's recorded answers (no call to the answering model), by the workflow its benchmark names;
 * null when nothing needs it.
 */
export async function startRejudge(
  client: Client,
  config: Config,
  manifest: RunManifest,
  runDir: string,
  opts: { judgeModel?: string; all?: boolean; tag?: string },
): Promise<StartedRejudge | null> {
  const benchmark = benchmarkNamed(manifest.benchmark);
  if (!benchmark.rejudge) {
    const judged = BENCHMARKS.filter((b) => b.rejudge).map((b) => b.title);
    throw new NotJudgedError(
      `run ${manifest.runId} is a ${benchmark.title} run: only ${judged.join(', ')} runs have judgments`,
    );
  }
  const ids = await benchmark.rejudge.tasksToRejudge(runDir, opts.all || opts.judgeModel !== undefined);
  if (!ids.length) return null;
  const tag = opts.tag ?? `rejudge-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  const taskIdsFile = `${tag}.json`;
  await writeJsonAtomic(path.join(runDir, taskIdsFile), ids);
  const input: RejudgeInput = {
    runId: manifest.runId,
    runDir,
    taskIdsFile,
    count: ids.length,
    tag,
    judgeModel: opts.judgeModel,
    concurrency: config.run.concurrency,
  };
  const handle = await client.workflow.start(benchmark.rejudge.workflow, {
    workflowId: `${manifest.runId}/${tag}`,
    taskQueue: config.temporal.taskQueue,
    args: [input],
  });
  return { handle, count: ids.length, tag };
}

/** After the rejudge finished: the benchmark records what it judged with (SpreadsheetBench 2: `<tag>.judge.json`). */
export async function recordRejudgeSettings(manifest: RunManifest, runDir: string, tag: string): Promise<void> {
  await benchmarkNamed(manifest.benchmark).rejudge?.recordSettings?.(runDir, tag);
}
