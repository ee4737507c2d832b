import { threadId } from 'node:worker_threads';

/** Jobs for test/unit/threadPool.test.ts, run in the pool's worker threads. */
export function whereAmI(tag: string): { tag: string; threadId: number } {
  return { tag, threadId };
}

export function fails(message: string): never {
  throw new RangeError(message);
}

export function dies(): never {
  process.exit(3); // in a worker thread: ends the thread only
}
