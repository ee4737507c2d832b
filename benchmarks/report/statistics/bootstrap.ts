/**
 * Bootstrap intervals that respect how a benchmark's numbers are clustered: attempts of the same task are not
 * independent, so whole tasks are resampled (with all their attempts), never single attempts. Percentile intervals from
 * a seeded generator: the same data give the same interval every time.
 */
import { seededRandom } from './random';

export interface Interval {
  mean: number;
  ci95: [number, number];
}

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
}

const DEFAULTS = { resamples: 2000, seed: 20250218 };

/** Mean over every attempt of every task, with a task-level bootstrap interval. `tasks[t]` holds task t's attempt values. */
export function clusteredMean(tasks: readonly (readonly number[])[], opts: BootstrapOptions = {}): Interval {
  const clusters = tasks.filter((t) => t.length > 0);
  const sums = clusters.map((t) => t.reduce((a, b) => a + b, 0));
  const counts = clusters.map((t) => t.length);
  const total = (pick: (i: number) => number) => {
    let s = 0;
    let n = 0;
    for (let j = 0; j < clusters.length; j++) {
      const i = pick(j);
      s += sums[i]!;
      n += counts[i]!;
    }
    return n ? s / n : 0;
  };
  return withInterval(total((j) => j), clusters.length, total, opts);
}

/**
 * The paired difference A − B of task means (each task's mean over its attempts in each run), with a paired
 * bootstrap: a resample draws tasks, keeping each task's two means together.
 */
export function pairedDifference(pairs: readonly { a: readonly number[]; b: readonly number[] }[], opts: BootstrapOptions = {}): Interval {
  const diffs = pairs.filter((p) => p.a.length && p.b.length).map((p) => meanOf(p.a) - meanOf(p.b));
  const mean = (pick: (i: number) => number) => {
    let s = 0;
    for (let j = 0; j < diffs.length; j++) s += diffs[pick(j)]!;
    return diffs.length ? s / diffs.length : 0;
  };
  return withInterval(mean((j) => j), diffs.length, mean, opts);
}

function meanOf(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The statistic on the data, and the 2.5th/97.5th percentiles of it over resamples of n clusters. */
function withInterval(point: number, n: number, statistic: (pick: (j: number) => number) => number, opts: BootstrapOptions): Interval {
  if (n === 0) return { mean: 0, ci95: [0, 0] };
  const { resamples, seed } = { ...DEFAULTS, ...opts };
  const random = seededRandom(seed);
  const values = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) values[r] = statistic(() => Math.floor(random() * n));
  values.sort();
  return { mean: point, ci95: [quantile(values, 0.025), quantile(values, 0.975)] };
}

/** Linear interpolation between order statistics (the common "type 7" quantile). */
function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
