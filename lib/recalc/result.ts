import type { RecalcEngine, RecalcResult } from './types';

/** Starts the clock for one recalculation; the returned function builds its result (an error text means failure). */
export function startResult(engine: RecalcEngine): (error?: string) => RecalcResult {
  const started = performance.now();
  return (error) => ({
    ok: error === undefined,
    engine,
    durationMs: Math.round(performance.now() - started),
    ...(error === undefined ? {} : { error }),
  });
}
