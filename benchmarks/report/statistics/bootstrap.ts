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
  const sums = Float64Array.from(clusters, (t) => t.reduce((a, b) => a + b, 0));
  const counts = Float64Array.from(clusters, (t) => t.length);
  const n = clusters.length;
  const point = n ? sums.reduce((a, b) => a + b, 0) / counts.reduce((a, b) => a + b, 0) : 0;
  // A resample draws n tasks with replacement: the mean over all their attempts.
  return withInterval(
    point,
    n,
    (random) => {
      let s = 0;
      let c = 0;
      for (let j = 0; j < n; j++) {
        const i = Math.floor(random() * n);
        s += sums[i];
        c += counts[i];
      }
      return s / c;
    },
    opts,
  );
}

/**
 * The paired difference A − B of task means (each task's mean over its attempts in each run), with a paired
 * bootstrap: a resample draws tasks, keeping each task's two means together.
 */
export function pairedDifference(
  pairs: readonly { a: readonly number[]; b: readonly number[] }[],
  opts: BootstrapOptions = {},
): Interval {
  const diffs = Float64Array.from(
    pairs.filter((p) => p.a.length && p.b.length),
    (p) => meanOf(p.a) - meanOf(p.b),
  );
  const n = diffs.length;
  const point = n ? diffs.reduce((a, b) => a + b, 0) / n : 0;
  return withInterval(
    point,
    n,
    (random) => {
      let s = 0;
      for (let j = 0; j < n; j++) s += diffs[Math.floor(random() * n)];
      return s / n;
    },
    opts,
  );
}

function meanOf(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The statistic on the data, and the 2.5th/97.5th percentiles of `resample` (one draw of n clusters) over resamples. */
function withInterval(
  point: number,
  n: number,
  resample: (random: () => number) => number,
  opts: BootstrapOptions,
): Interval {
  if (n === 0) return { mean: 0, ci95: [0, 0] };
  const { resamples, seed } = { ...DEFAULTS, ...opts };
  const random = seededRandom(seed);
  const values = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) values[r] = resample(random);
  values.sort();
  return { mean: point, ci95: [quantile(values, 0.025), quantile(values, 0.975)] };
}

/** Linear interpolation between order statistics (the common "type 7" quantile). */
function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
