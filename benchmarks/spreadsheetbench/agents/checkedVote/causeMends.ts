import type { FormulaReference } from './formulaReferences';

/**
 * The fixes the formula checks name, applied by the harness itself (checked-vote-v9). The checks already say which
 * reference to write instead ("replace $A4 with $B4, where the data is", "look up $B$2 instead of A2", "compare the
 * dates of $L$7:$L$57 instead"), but the 1.5B gave the failed formula back unchanged in most repairs (v8.3: 57105's
 * repairs kept $A4 in 3 of 3). A swap is mechanical and its result is checked on every input like any candidate, so a
 * wrong one fails there.
 */
export interface ReferenceSwap {
  /** A reference as the formula writes it ("$A4", "Data!$G$2", "$K$7:$K$57"). */
  from: string;
  to: string;
  /** The check that named it, e.g. "empty_reference". */
  because: string;
}

/**
 * The formula with every swap applied at once (so two ranges can trade places), outside "text", where `from` stands
 * as a whole reference: not part of a longer one, a name or a sheet-qualified reference to another sheet.
 */
export function withSwaps(formula: string, swaps: readonly ReferenceSwap[]): string {
  let out = '';
  let i = 0;
  while (i < formula.length) {
    if (formula[i] === '"') {
      const end = closingQuote(formula, i);
      out += formula.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const swap = swaps.find((s) => standsAt(formula, i, s.from));
    if (swap) {
      out += swap.to;
      i += swap.from.length;
    } else out += formula[i++];
  }
  return out;
}

function standsAt(formula: string, at: number, text: string): boolean {
  if (!formula.startsWith(text, at)) return false;
  const before = formula[at - 1] ?? '';
  const after = formula[at + text.length] ?? '';
  return !/[\w.$:!']/.test(before) && !/[\w(:!]/.test(after);
}

/** Index of the quote closing the text that opens at `start` ("" inside text skipped), or the formula's end. */
function closingQuote(formula: string, start: number): number {
  for (let j = start + 1; j < formula.length; j++) {
    if (formula[j] !== '"') continue;
    if (formula[j + 1] === '"') j++;
    else return j;
  }
  return formula.length;
}

/** A fixed-row range's text with its start (or end) row moved to take in `row`. */
export function rowsMoved(text: string, row: number, range: FormulaReference): string {
  const [first, second] = [...text.matchAll(/(\$?[A-Za-z]{1,3}\$)(\d+)/g)];
  if (!first || !second) return text;
  const start = row < range.rowStart ? row : range.rowStart;
  const end = row > range.rowEnd ? row : range.rowEnd;
  const at = (m: RegExpMatchArray, n: number) => ({ index: m.index ?? 0, length: m[0].length, text: `${m[1]}${n}` });
  const [a, b] = [at(first, start), at(second, end)];
  return (
    text.slice(0, a.index) + a.text + text.slice(a.index + a.length, b.index) + b.text + text.slice(b.index + b.length)
  );
}
