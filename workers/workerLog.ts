import type { LogEntry } from '@temporalio/worker';
import { FailureTypes } from '../lib/failureTypes';

/** Expected for the recalc worker, which by design serves activities only: not worth a warning on every start. */
const EXPECTED_NOTICES = new Set(['No workflows registered, not polling for workflow tasks']);

export interface WorkerLogLine {
  /** The line to print, or undefined to drop the entry. */
  line?: string;
}

/**
 * What the worker runtime prints: an activity failure as one line (task workflow, activity, attempt, message — no
 * stack), only for the run in `focusRunId` when a CLI follows one run (all runs share the task queues); expected
 * notices dropped; everything else as the SDK formats it (`undefined` here).
 */
export function workerLogLine(entry: LogEntry, focusRunId?: string): WorkerLogLine | undefined {
  if (EXPECTED_NOTICES.has(entry.message)) return {};
  if (entry.message !== 'Activity failed') return undefined;
  const meta = entry.meta ?? {};
  const workflowId = String(meta.workflowId ?? '?');
  if (focusRunId && workflowId !== focusRunId && !workflowId.startsWith(`${focusRunId}/`)) return {};
  const error = meta.error as { message?: string; type?: string } | undefined;
  // A call handed to a batch (run --batch) ends its activity so, by design: the task waits for the batch, not a retry.
  if (error?.type === FailureTypes.BatchPending) return {};
  const message = (error?.message ?? String(meta.error ?? '')).split('\n')[0];
  return {
    line: `[${entry.level}] ${workflowId}: ${String(meta.activityType ?? 'activity')} attempt ${String(meta.attempt ?? '?')} failed: ${message}`,
  };
}
