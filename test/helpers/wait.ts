/** Polls `cond` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Whether a process with this pid exists (signal 0 tests without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `promise`, or a failure after `ms` naming what was waited for (and, when given, what `diagnose` finds then): a wait
 * that could hang a hook until its timeout becomes a named failure well before it.
 */
export async function within<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  diagnose?: () => Promise<string> | string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const state = diagnose
        ? Promise.resolve()
            .then(diagnose)
            .catch((err: unknown) => `(diagnosis failed: ${String(err)})`)
        : Promise.resolve('');
      void state.then((s) => reject(new Error(`waited ${Math.round(ms / 1000)} s for ${what}${s ? `; ${s}` : ''}`)));
    }, ms);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
