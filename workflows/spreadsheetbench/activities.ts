import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { MainActivities, RecalcActivities } from '../../activities';
import type { TaskPaths } from './taskPaths';

/**
 * Activity options per kind of work. LLM calls retry few times (each retry may cost money: the response cache makes a
 * retry after a success free, and non-retryable classes stop at once); 429s come back with their own next delay.
 */
export const llm = proxyActivities<MainActivities>({
  startToCloseTimeout: '10 minutes',
  // Activities heartbeat every few seconds: a dead worker is noticed within this, not at the start-to-close timeout.
  heartbeatTimeout: '20s',
  // The per-class attempt limits (config `llm.retryLimits`) are applied by the activity; this is the outer bound.
  retry: { maximumAttempts: 12, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '60s' },
});

export const execution = proxyActivities<MainActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 3, initialInterval: '1s', nonRetryableErrorTypes: ['DatasetError'] },
});

/** All of a solution's test cases in one activity: up to N executions back to back, each heartbeating. */
export const executionBatch = proxyActivities<MainActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 3, initialInterval: '1s', nonRetryableErrorTypes: ['DatasetError'] },
});

export const bookkeeping = proxyActivities<MainActivities>({
  // Short activities without heartbeats: a worker lost mid-call is noticed by this timeout.
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 5, initialInterval: '1s', nonRetryableErrorTypes: ['DatasetError'] },
});

/** The same bookkeeping as local activities: run inside the workflow task, one marker event each, no task-queue trip. */
export const localBookkeeping = proxyLocalActivities<MainActivities>({
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 5, initialInterval: '1s', nonRetryableErrorTypes: ['DatasetError'] },
});

/**
 * Cheap bookkeeping (prepare, output paths, record, close sessions) as local activities in new executions; histories
 * recorded before keep the activity they scheduled then.
 */
export function bookkeepingCall(paths: TaskPaths): typeof bookkeeping {
  return paths.uses('local-bookkeeping') ? localBookkeeping : bookkeeping;
}

/**
 * Scoring as a local activity in new executions: it runs in the workflow task that follows the recalculation, with the
 * result record, which saves a workflow task and an activity round trip per task (a few tens of ms of exceljs work, no
 * heartbeats; a lost worker's task is retried whole and scoring is idempotent).
 */
export function scoringCall(paths: TaskPaths): typeof bookkeeping {
  return paths.uses('local-scoring') ? localBookkeeping : bookkeeping;
}

/** Waits on work another workflow does (a conversation's turn): long, heartbeating, so a lost worker is noticed. */
export const waiting = proxyActivities<MainActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 5, initialInterval: '1s' },
});

export function recalcOn(taskQueue: string, workbooks = 1) {
  return proxyActivities<RecalcActivities>({
    taskQueue,
    // Five minutes a workbook (a batch holds a task's outputs).
    startToCloseTimeout: `${5 * Math.max(1, workbooks)} minutes`,
    heartbeatTimeout: '20s',
    retry: { maximumAttempts: 3, initialInterval: '2s' },
  });
}
