import type { WrittenNumber } from './numbers';

/** Where a value was found: the index of its source and the character offset in that source's text. */
export interface Found {
  source: number;
  at: number;
  value: number;
}

/**
 * The values the turn's tools produced, sorted for range lookups. Matching an answer's number allows its formatting
 * (separators, percent, scale words) and rounding to the precision it shows: "1,234.5" matches 1234.49, "12%" matches
 * 0.1204 and 12.04, "1.2M" matches 1,234,567, "-5" and "5" match either sign (answers state magnitudes: "fell by 5").
 */
export class NumberIndex {
  private values: Float64Array = new Float64Array(0);
  private refs: Array<{ source: number; at: number }> = [];
  private pending: Found[] = [];

  add(source: number, numbers: Array<{ value: number; at: number }>): void {
    for (const n of numbers) this.pending.push({ source, at: n.at, value: n.value });
  }

  get size(): number {
    return this.values.length + this.pending.length;
  }

  /** The closest produced value the written number can be a rendering of (ties: the earliest source), if any. */
  find(n: WrittenNumber): Found | undefined {
    this.seal();
    // Rounding to the shown precision: within half a unit of the last shown digit (of the scale: "1.2M" ± 50,000).
    const tolerance = 0.5 * 10 ** -n.decimals * n.scale * (1 + 1e-9) + Number.EPSILON * Math.abs(n.value);
    const targets = [n.value, -n.value];
    const tolerances = [tolerance, tolerance];
    // A percentage may have been produced as a fraction (0.1204 → 12%).
    if (n.percent) {
      targets.push(n.value / 100, -n.value / 100);
      tolerances.push(tolerance / 100, tolerance / 100);
    }
    let best: Found | undefined;
    let bestScore = Number.POSITIVE_INFINITY;
    targets.forEach((target, i) => {
      const tol = tolerances[i];
      for (let k = this.lowerBound(target - tol); k < this.values.length && this.values[k] <= target + tol; k++) {
        const score = Math.abs(this.values[k] - target) / (tol || 1);
        const ref = this.refs[k];
        if (score < bestScore || (score === bestScore && best && ref.source < best.source)) {
          best = { ...ref, value: this.values[k] };
          bestScore = score;
        }
      }
    });
    return best;
  }

  private seal(): void {
    if (!this.pending.length) return;
    const all = [...this.refs.map((r, i) => ({ ...r, value: this.values[i] })), ...this.pending].sort(
      (a, b) => a.value - b.value || a.source - b.source || a.at - b.at,
    );
    this.values = Float64Array.from(all, (f) => f.value);
    this.refs = all.map(({ source, at }) => ({ source, at }));
    this.pending = [];
  }

  private lowerBound(x: number): number {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.values[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
