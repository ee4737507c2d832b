import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { SA } from '../lib/temporal/searchAttributes';

/** What Temporal records about where a run is: the folder its run workflow's memo names, and the experiment's hash. */
export interface RecordedRun {
  /** As the memo carries it: relative to the artifacts root (with `/`), or absolute. */
  runDir: string;
  experimentHash?: string;
}

/**
 * The run folder Temporal records for run `runId`: the memo of the run's own workflow (a `benchmarkRun` whose id and
 * `BenchRunId` are the run id), or undefined when Temporal has no such run or its memo names no folder. Other errors
 * (Temporal unreachable) are thrown.
 */
export async function recordedRun(client: Client, runId: string): Promise<RecordedRun | undefined> {
  let description;
  try {
    description = await client.workflow.getHandle(runId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  if (description.type !== 'benchmarkRun' || description.typedSearchAttributes.get(SA.runId) !== runId)
    return undefined;
  const memo = description.memo as { runDir?: unknown; experimentHash?: unknown } | undefined;
  if (typeof memo?.runDir !== 'string') return undefined;
  return {
    runDir: memo.runDir,
    ...(typeof memo.experimentHash === 'string' ? { experimentHash: memo.experimentHash } : {}),
  };
}
