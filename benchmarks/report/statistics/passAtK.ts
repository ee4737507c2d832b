/**
 * Repeated attempts of one task: n attempts, c of them successes.
 * - pass@k: the chance that at least one of k attempts drawn from the n succeeds — the unbiased estimator
 *   1 − C(n−c, k) / C(n, k) (Chen et al., 2021, "Evaluating Large Language Models Trained on Code").
 * - pass^k: the chance that all k drawn attempts succeed, C(c, k) / C(n, k) (τ-bench's estimator of consistency).
 * Both are computed as products, so large n never overflows a binomial coefficient.
 */
function check(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new Error(`pass@k needs whole numbers 0 ≤ c ≤ n and 1 ≤ k ≤ n; got n=${n} c=${c} k=${k}`);
  }
}

export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (n - c < k) return 1;
  // C(n−c, k) / C(n, k) = Π_{i = n−c+1..n} (1 − k / i)
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (c < k) return 0;
  // C(c, k) / C(n, k) = Π_{i = 0..k−1} (c − i) / (n − i)
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}
