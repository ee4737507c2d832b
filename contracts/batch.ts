/**
 * `run --batch`: the workflows that collect model calls of many tasks into batches (`llmBatchQueue`, one per run) and
 * carry one batch through the provider's files + batches API (`llmBatch`), and how a task hears its reply is ready.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Failover } from './failover';

export const BATCH_QUEUE_WORKFLOW = 'llmBatchQueue';
export const BATCH_WORKFLOW = 'llmBatch';

/** The batch settings a run recorded (run.json `llm.batch`). */
export interface BatchSettings {
  maxRequests: number;
  windowMs: number;
  pollIntervalMs: number;
}

/** One call waiting for a batch; its request is in `<run>/batches/requests/<cacheKey>.json`. */
export interface BatchCallRequest {
  cacheKey: string;
  callKey: string;
  model: string;
  /** The task workflow to signal when the reply (or the order to ask singly) is ready. */
  workflowId: string;
}

export interface BatchQueueInput {
  runId: string;
  runDir: string;
  settings: BatchSettings;
  /** Batches started so far by earlier executions (their names go on from here). */
  batchesStarted?: number;
  /** How soon a dead worker's work moves elsewhere (config `temporal.failover`); absent: the workflows' timeouts. */
  failover?: Failover;
}

export interface BatchInput {
  runId: string;
  runDir: string;
  /** `b0001`…: the batch's folder under `<run>/batches/` and its tag at the provider (`<runId>/<name>`). */
  name: string;
  model: string;
  calls: BatchCallRequest[];
  pollIntervalMs: number;
  /** How soon a dead worker's work moves elsewhere (config `temporal.failover`); absent: the workflows' timeouts. */
  failover?: Failover;
}

/** What became of a batch's calls. */
export interface BatchOutcome {
  name: string;
  batchId?: string;
  status: string;
  /** Calls answered by the batch (their replies are in the run's response cache). */
  answered: number;
  /** Calls sent back to single requests, with why (failed, missing or expired lines, or the whole batch refused). */
  single: number;
  /** The provider's validation errors of a refused batch. */
  errors: string[];
}

/** A batch's progress, as `sheetbench status`, the run page and the `batchProgress` query show it. */
export interface BatchProgress {
  name: string;
  batchId?: string;
  status: string;
  calls: number;
  completed: number;
  failed: number;
}

export const batchCallSignal = defineSignal<[BatchCallRequest]>('batchCall');
/** To a task workflow: the call with this cache key has its reply in the cache, or is to be asked singly. */
export const batchReplySignal = defineSignal<[string]>('batchReply');
export const batchProgressQuery = defineQuery<BatchProgress>('batchProgress');
export const batchQueueQuery = defineQuery<{ waiting: number; batches: BatchProgress[] }>('batchQueue');

export function batchQueueWorkflowId(runId: string): string {
  return `${runId}/llm-batch-queue`;
}

export function batchWorkflowId(runId: string, name: string): string {
  return `${runId}/llm-batch/${name}`;
}
