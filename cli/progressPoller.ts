/**
 * Asks for a run's progress every `intervalMs`, one question at a time (a slow answer delays the next question, it
 * never overlaps it), until stopped. `stop()` aborts the question in flight (through the signal `ask` is given) and
 * resolves once it has settled: after it nothing uses the connection, which may then be closed.
 */
export function pollProgress<T>(
  ask: (signal: AbortSignal) => Promise<T>,
  onProgress: (p: T) => void,
  intervalMs = 1000,
): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, intervalMs);
      stopping.signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
    });
  const loop = (async () => {
    for (await pause(); !stopping.signal.aborted; await pause()) {
      const p = await ask(stopping.signal).catch(() => undefined); // a missed poll: the next one asks again
      if (p !== undefined && !stopping.signal.aborted) onProgress(p);
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      await loop;
    },
  };
}
