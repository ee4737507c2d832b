import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import { FailureTypes } from '../../lib/failureTypes';

/**
 * Activity options per kind of work, shared by every task workflow (each proxies its own activities with them).
 * LLM calls retry few times (each retry may cost money: the response cache makes a retry after a success free, and
 * non-retryable classes stop at once); 429s come back with their own next delay.
 */
export const LLM_CALL: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  // Activities heartbeat every few seconds: a dead worker is noticed within this, not at the start-to-close timeout.
  heartbeatTimeout: '20s',
  // The per-class attempt limits (config `llm.retryLimits`) are applied by the activity; this is the outer bound.
  retry: { maximumAttempts: 12, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '60s' },
};

/** Code run in a sandbox (one execution; a kernel session's execution is the same, a retry after a crash gets a fresh kernel). */
export const EXECUTION: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 3, initialInterval: '1s', nonRetryableErrorTypes: [FailureTypes.DatasetError] },
};

/** Short activities without heartbeats: a worker lost mid-call is noticed by this timeout. */
export const BOOKKEEPING: ActivityOptions = {
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 5, initialInterval: '1s', nonRetryableErrorTypes: [FailureTypes.DatasetError] },
};

/** The same bookkeeping as local activities: run inside the workflow task, one marker event each, no task-queue trip. */
export const LOCAL_BOOKKEEPING: LocalActivityOptions = {
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 5, initialInterval: '1s', nonRetryableErrorTypes: [FailureTypes.DatasetError] },
};

/** Reading a run's task list and scoring the finished run. */
export const RUN_BOOKKEEPING: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 10, initialInterval: '1s', maximumInterval: '30s' },
};

/**
 * A long wait on other workflows' results: it heartbeats, so a lost worker is noticed within a minute and the wait
 * starts again on another; it lasts as long as the longest task it waits on.
 */
export const TASK_WATCH: ActivityOptions = {
  startToCloseTimeout: '7 days',
  heartbeatTimeout: '60s',
  retry: { maximumAttempts: 1000, initialInterval: '1s', maximumInterval: '60s' },
};
