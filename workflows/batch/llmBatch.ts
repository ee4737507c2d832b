import { getExternalWorkflowHandle, setHandler, sleep, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import { SA } from '../../lib/temporal/searchAttributes';
import {
  batchProgressQuery,
  batchReplySignal,
  type BatchInput,
  type BatchOutcome,
  type BatchProgress,
} from '../../contracts/batch';
import { batchPoll, batchSteps } from './activities';
import { useFailover } from '../run/failover';

const FINISHED = new Set(['completed', 'failed', 'expired', 'cancelled']);

/**
 * One batch of model calls through the provider's files + batches API: upload and create (each found again rather
 * than repeated after a crash), poll with a durable timer between looks, collect the replies into the run's response
 * cache, then tell each waiting task. Progress is in the `batchProgress` query, the memo (batch id) and the
 * `BenchStatus` search attribute (`batch:<status>`).
 */
export async function llmBatch(input: BatchInput): Promise<BatchOutcome> {
  useFailover(input.failover);
  const keys = input.calls.map((c) => c.cacheKey);
  let progress: BatchProgress = { name: input.name, status: 'submitting', calls: keys.length, completed: 0, failed: 0 };
  setHandler(batchProgressQuery, () => progress);
  upsertSearchAttributes([
    { key: SA.runId, value: input.runId },
    { key: SA.model, value: input.model },
    { key: SA.status, value: 'batch:submitting' },
  ]);
  const { batchId } = await batchSteps.submitLlmBatch({
    runId: input.runId,
    runDir: input.runDir,
    name: input.name,
    cacheKeys: keys,
  });
  upsertMemo({ batchId, calls: keys.length });
  for (;;) {
    const state = await batchPoll.pollLlmBatch({ runDir: input.runDir, name: input.name, batchId });
    progress = { ...progress, batchId, status: state.status, completed: state.completed, failed: state.failed };
    upsertSearchAttributes([{ key: SA.status, value: `batch:${state.status}` }]);
    if (FINISHED.has(state.status)) break;
    await sleep(input.pollIntervalMs);
  }
  const outcome = await batchSteps.collectLlmBatch({
    runDir: input.runDir,
    name: input.name,
    batchId,
    cacheKeys: keys,
  });
  upsertMemo({ answered: outcome.answered, single: outcome.single });
  await Promise.all(input.calls.map((c) => tellTask(c.workflowId, c.cacheKey)));
  return outcome;
}

/** A task that has ended (cancelled, or answered singly after a timeout) is not waiting any more: nothing to tell. */
async function tellTask(workflowId: string, cacheKey: string): Promise<void> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(batchReplySignal, cacheKey);
  } catch {
    // The task workflow is gone; were it to ask again, the reply is in the cache or its single-request marker on disk.
  }
}
