/**
 * McNemar's exact test for paired binary outcomes: of the discordant pairs (`b` pass only under A, `c` only under B),
 * how surprising is the split if both were equally likely? Two-sided p = min(1, 2 · P(X ≤ min(b, c))), X ~ Bin(b + c, ½).
 */
export function mcnemarExactP(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new Error(`McNemar needs two counts ≥ 0, got ${b} and ${c}`);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // Binomial terms in log space: ½^n underflows past n ≈ 1074.
  let logTerm = n * Math.log(0.5);
  const logs = [logTerm];
  for (let i = 0; i < k; i++) {
    logTerm += Math.log((n - i) / (i + 1));
    logs.push(logTerm);
  }
  const max = Math.max(...logs);
  const tail = Math.exp(max) * logs.reduce((s, l) => s + Math.exp(l - max), 0);
  return Math.min(1, 2 * tail);
}
