import type { RequestLogEntry } from '../../lib/scriptedLlm';

export interface Interval {
  key: string;
  start: number;
  end: number;
}

/** When a request reached the scripted server and when it was answered. */
export function intervalOf(e: RequestLogEntry): Interval {
  const start = Date.parse(e.time);
  return { key: e.callKey ?? '', start, end: start + e.durationMs };
}

/** The most intervals open at one instant. */
export function maxOverlap(held: readonly { start: number; end: number }[]): number {
  const events = held
    .flatMap((h) => [[h.start, 1] as const, [h.end, -1] as const])
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let max = 0;
  for (const [, delta] of events) max = Math.max(max, (now += delta));
  return max;
}

/** The most starts within any window of `windowMs`. */
export function maxStartsPerWindow(starts: readonly number[], windowMs: number): number {
  return Math.max(0, ...starts.map((t) => starts.filter((s) => s >= t && s < t + windowMs).length));
}
