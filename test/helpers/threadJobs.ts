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

/** The stack where this job runs: which file the thread loaded it from (the TypeScript module or a bundle of it). */
export function whereDefined(): string {
  return new Error('where').stack ?? '';
}

/** Can this thread import a TypeScript module (test/helpers/typeScriptOnly.ts: only through tsx)? */
export async function loadsTypeScript(file: string): Promise<boolean> {
  try {
    await import(file);
    return true;
  } catch {
    return false;
  }
}
