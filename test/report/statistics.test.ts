/** Statistics against cases worked out by hand, and bootstrap coverage on synthetic data with a known truth. */
import { describe, expect, it } from 'vitest';
import {
  clusteredMean,
  mcnemarExactP,
  pairedDifference,
  passAtK,
  passHatK,
  seededRandom,
} from '../../benchmarks/report/statistics';

describe("McNemar's exact test", () => {
  it('matches the binomial tail worked out by hand', () => {
    // b=1, c=6: n=7, P(X ≤ 1) = (1 + 7)/2^7 = 8/128; two-sided 16/128.
    expect(mcnemarExactP(1, 6)).toBeCloseTo(0.125, 12);
    expect(mcnemarExactP(6, 1)).toBeCloseTo(0.125, 12);
    // b=0, c=5: 2 · 1/32.
    expect(mcnemarExactP(0, 5)).toBeCloseTo(0.0625, 12);
    // b=2, c=10: n=12, P(X ≤ 2) = (1 + 12 + 66)/4096 → 158/4096.
    expect(mcnemarExactP(2, 10)).toBeCloseTo(158 / 4096, 12);
    // A balanced split, or no discordant pair at all: no evidence, p = 1.
    expect(mcnemarExactP(3, 3)).toBe(1);
    expect(mcnemarExactP(0, 0)).toBe(1);
    // b=0, c=1: 2 · ½ = 1.
    expect(mcnemarExactP(0, 1)).toBe(1);
  });

  it('stays finite for 912-task runs (½^n underflows in plain arithmetic) and refuses nonsense', () => {
    const p = mcnemarExactP(400, 600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
    expect(mcnemarExactP(1000, 1000)).toBe(1);
    expect(() => mcnemarExactP(-1, 2)).toThrow(/counts ≥ 0/);
    expect(() => mcnemarExactP(1.5, 2)).toThrow(/counts ≥ 0/);
  });
});

describe('pass@k and pass^k', () => {
  it('matches C(n,k) formulas worked out by hand', () => {
    // n=3, c=2: pass@1 = 1 − C(1,1)/C(3,1) = 2/3; pass@2 = 1 − C(1,2)/C(3,2) = 1; pass@3 = 1.
    expect(passAtK(3, 2, 1)).toBeCloseTo(2 / 3, 12);
    expect(passAtK(3, 2, 2)).toBe(1);
    expect(passAtK(3, 2, 3)).toBe(1);
    // pass^1 = 2/3, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = C(2,3)/C(3,3) = 0.
    expect(passHatK(3, 2, 1)).toBeCloseTo(2 / 3, 12);
    expect(passHatK(3, 2, 2)).toBeCloseTo(1 / 3, 12);
    expect(passHatK(3, 2, 3)).toBe(0);
    // n=10, c=3, k=5: 1 − C(7,5)/C(10,5) = 1 − 21/252; pass^2 = C(3,2)/C(10,2) = 3/45.
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
    expect(passHatK(10, 3, 2)).toBeCloseTo(3 / 45, 12);
    // Never or always right.
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passHatK(5, 5, 3)).toBe(1);
  });

  it('pass@1 is the success rate, pass@k grows and pass^k shrinks with k', () => {
    for (let c = 0; c <= 8; c++) {
      expect(passAtK(8, c, 1)).toBeCloseTo(c / 8, 12);
      expect(passHatK(8, c, 1)).toBeCloseTo(c / 8, 12);
      for (let k = 2; k <= 8; k++) {
        expect(passAtK(8, c, k)).toBeGreaterThanOrEqual(passAtK(8, c, k - 1) - 1e-12);
        expect(passHatK(8, c, k)).toBeLessThanOrEqual(passHatK(8, c, k - 1) + 1e-12);
      }
    }
  });

  it('is unbiased: over many draws of n attempts, the mean estimate equals 1 − (1 − p)^k', () => {
    const random = seededRandom(7);
    const p = 0.3;
    let sumAt = 0;
    let sumHat = 0;
    const draws = 20000;
    for (let i = 0; i < draws; i++) {
      let c = 0;
      for (let a = 0; a < 6; a++) if (random() < p) c++;
      sumAt += passAtK(6, c, 3);
      sumHat += passHatK(6, c, 3);
    }
    expect(sumAt / draws).toBeCloseTo(1 - (1 - p) ** 3, 2);
    expect(sumHat / draws).toBeCloseTo(p ** 3, 2);
  });

  it('refuses k above n and counts out of range', () => {
    expect(() => passAtK(3, 2, 4)).toThrow(/1 ≤ k ≤ n/);
    expect(() => passHatK(3, 4, 1)).toThrow(/0 ≤ c ≤ n/);
  });
});

describe('task-clustered bootstrap intervals', () => {
  it('the mean is over every attempt; the interval is reproducible and brackets it', () => {
    const tasks = [
      [1, 1, 0],
      [0, 0, 0],
      [1, 1, 1],
      [1, 0, 1],
      [0, 1, 0],
    ];
    const a = clusteredMean(tasks);
    expect(a.mean).toBeCloseTo(8 / 15, 12);
    expect(a.ci95[0]).toBeLessThan(a.mean);
    expect(a.ci95[1]).toBeGreaterThan(a.mean);
    expect(clusteredMean(tasks)).toEqual(a);
    // All tasks alike: no spread, the interval collapses on the mean.
    expect(clusteredMean([[1], [1], [1]])).toEqual({ mean: 1, ci95: [1, 1] });
    expect(clusteredMean([])).toEqual({ mean: 0, ci95: [0, 0] });
  });

  /**
   * Coverage: draw many benchmarks from a known population and count how often the 95% interval holds the true mean.
   * Tasks differ in difficulty (p_t uniform on [0, 1]), attempts of one task are Bernoulli(p_t): strongly clustered,
   * so an interval that treated attempts as independent would be far too narrow.
   */
  it('covers the true mean about 95% of the time on clustered synthetic data (60 tasks × 3 attempts)', () => {
    const random = seededRandom(42);
    const trials = 400;
    let covered = 0;
    let naiveCovered = 0;
    for (let i = 0; i < trials; i++) {
      const tasks = Array.from({ length: 60 }, () => {
        const p = random();
        return Array.from({ length: 3 }, () => (random() < p ? 1 : 0));
      });
      const { ci95 } = clusteredMean(tasks, { resamples: 1000, seed: i + 1 });
      if (ci95[0] <= 0.5 && 0.5 <= ci95[1]) covered++;
      // The same data as 180 independent attempts (what ignoring clusters would do): too narrow.
      const { ci95: naive } = clusteredMean(
        tasks.flat().map((x) => [x]),
        { resamples: 1000, seed: i + 1 },
      );
      if (naive[0] <= 0.5 && 0.5 <= naive[1]) naiveCovered++;
    }
    expect(covered / trials).toBeGreaterThan(0.91);
    expect(covered / trials).toBeLessThan(0.985);
    expect(naiveCovered / trials).toBeLessThan(covered / trials - 0.05);
  });

  it('the paired difference of two runs covers the true difference about 95% of the time', () => {
    const random = seededRandom(99);
    const trials = 400;
    let covered = 0;
    for (let i = 0; i < trials; i++) {
      // Run B is 0.1 better on every task; both share each task's difficulty (the pairing matters).
      const pairs = Array.from({ length: 80 }, () => {
        const p = 0.2 + 0.6 * random();
        const draw = (q: number) => Array.from({ length: 2 }, () => (random() < q ? 1 : 0));
        return { a: draw(p), b: draw(p + 0.1) };
      });
      const { ci95 } = pairedDifference(pairs, { resamples: 1000, seed: i + 1 });
      if (ci95[0] <= -0.1 && -0.1 <= ci95[1]) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.91);
    expect(covered / trials).toBeLessThan(0.985);
  });

  it('a paired difference worked out by hand', () => {
    const d = pairedDifference([
      { a: [1], b: [0] },
      { a: [1, 0], b: [1, 1] },
      { a: [0], b: [0] },
    ]);
    // Task differences 1, −0.5, 0 → mean 1/6.
    expect(d.mean).toBeCloseTo(1 / 6, 12);
    expect(d.ci95[0]).toBeGreaterThanOrEqual(-0.5);
    expect(d.ci95[1]).toBeLessThanOrEqual(1);
  });
});
