import { proxyLocalActivities } from '@temporalio/workflow';
import { proxyFailoverActivities } from '../run/failover';
import type { RecalcActivities, SpreadsheetActivities } from '../../activities';
import { BOOKKEEPING, EXECUTION, LLM_CALL, LOCAL_BOOKKEEPING } from '../run/activityOptions';
import { FailureTypes } from '../../lib/failureTypes';

/** A SpreadsheetBench task's activities, by the kind of work (options: workflows/run/activityOptions.ts). */
export const llm = proxyFailoverActivities<SpreadsheetActivities>(LLM_CALL);

export const execution = proxyFailoverActivities<SpreadsheetActivities>(EXECUTION);

/** Kernel-session executions: like one-shot executions, but a retry after a crash runs in a fresh kernel. */
export const sessions = proxyFailoverActivities<SpreadsheetActivities>(EXECUTION);

/** All of a solution's test cases in one activity: up to N executions back to back, each heartbeating. */
export const executionBatch = proxyFailoverActivities<SpreadsheetActivities>({
  ...EXECUTION,
  startToCloseTimeout: '15 minutes',
});

export const bookkeeping = proxyFailoverActivities<SpreadsheetActivities>(BOOKKEEPING);

export const localBookkeeping = proxyLocalActivities<SpreadsheetActivities>(LOCAL_BOOKKEEPING);

export function recalcOn(taskQueue: string, workbooks = 1) {
  return proxyFailoverActivities<RecalcActivities>({
    taskQueue,
    // Five minutes a workbook (a batch holds a task's outputs).
    startToCloseTimeout: `${5 * Math.max(1, workbooks)} minutes`,
    heartbeatTimeout: '20s',
    // Recalculation is free and idempotent, and a lost worker costs an attempt: three were used up by three worker
    // kills in a row in the chaos suite. Ten, backing off to 30 s, outlast a crash loop of a few minutes.
    retry: { maximumAttempts: 10, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '30s' },
  });
}

/**
 * SheetCopilot's other stage activities (observation, inspection, records). Stages heartbeat every 2 s, so a killed
 * worker is noticed within 10 s and the stage is retried elsewhere; earlier stages are not re-run (their results are in
 * the workflow history).
 */
export const copilot = proxyFailoverActivities<SpreadsheetActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10s',
  retry: {
    maximumAttempts: 3,
    initialInterval: '1s',
    backoffCoefficient: 2,
    nonRetryableErrorTypes: [FailureTypes.DatasetError, FailureTypes.StageMissing],
  },
});

/**
 * SheetCopilot's LLM stages (`copilotAsk`): the retry policy of every model call (LLM_CALL: the per-class attempt
 * limits of `llm.retryLimits` are applied by the activity, this is only the outer bound), with the stages' 10 s heartbeat
 * timeout. Under `copilot`'s three attempts a fourth 429 could never be waited out, whatever `retryLimits.rate_limit` said.
 */
export const copilotLlm = proxyFailoverActivities<SpreadsheetActivities>({
  ...LLM_CALL,
  heartbeatTimeout: '10s',
  retry: { ...LLM_CALL.retry, nonRetryableErrorTypes: [FailureTypes.DatasetError, FailureTypes.StageMissing] },
});

export const cleanup = proxyFailoverActivities<SpreadsheetActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 2 },
});
