import { ActivityFailure, ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { batchReplySignal } from '../../contracts/batch';
import { FailureTypes } from '../../lib/failureTypes';

/** How long a task waits for its batch before asking again (the queue answers at once if the batch has finished). */
const ASK_AGAIN_AFTER = '1 hour';

/** Cache keys whose batch has told this workflow the reply (or the order to ask singly) is ready. */
const replied = new Set<string>();
let listening = false;

/**
 * A model call that may go through a batch (`run --batch`): the activity either answers, or hands its request to the
 * run's batch queue and fails (FailureTypes.BatchPending); then this workflow waits (no activity, no worker slot held) until
 * the batch signals `batchReply` for that call, and calls the activity again, which finds the reply in the response
 * cache, or the marker that makes it ask singly. Outside batch runs the activity never fails so: the same commands
 * as a plain call.
 */
export async function throughBatch<T>(call: () => Promise<T>): Promise<T> {
  if (!listening) {
    setHandler(batchReplySignal, (cacheKey) => void replied.add(cacheKey));
    listening = true;
  }
  for (;;) {
    try {
      return await call();
    } catch (err) {
      const cacheKey = pendingBatchKey(err);
      if (cacheKey === undefined) throw err;
      await condition(() => replied.has(cacheKey), ASK_AGAIN_AFTER);
    }
  }
}

function pendingBatchKey(err: unknown): string | undefined {
  if (!(err instanceof ActivityFailure) || !(err.cause instanceof ApplicationFailure)) return undefined;
  if (err.cause.type !== FailureTypes.BatchPending) return undefined;
  const key: unknown = err.cause.details?.[0];
  return typeof key === 'string' ? key : undefined;
}
