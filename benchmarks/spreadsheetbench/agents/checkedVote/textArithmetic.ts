import { describeValue } from '../../../workbook/cellValue';
import type { WorkbookValues } from '../../../workbook/ooxmlReader';
import { referencesOf, sheetOf } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';

/**
 * A cell the formula computes with (`*`, `/`, `^`, `+`, `-`) that holds text Excel cannot read as a number
 * (checked-vote-v9, 54057: `C3>=H2*0.95` with H2 = "A33", a sample code of the limits table, and `K3*1.05` with K3 =
 * "Pass"): the formula is #VALUE! there, and the check said only that. Read in the answer region's first cell on the
 * first input; the request names the cell, its text and the operation.
 */
export async function textInArithmetic(
  wb: WorkbookValues,
  formula: string,
  region: FormulaRegion,
): Promise<string | undefined> {
  const code = formula.replace(/"(?:[^"]|"")*"/g, (s) => ' '.repeat(s.length));
  for (const ref of referencesOf(formula)) {
    if (ref.rowStart !== ref.rowEnd || ref.colStart !== ref.colEnd) continue;
    const operation = arithmeticAround(code, ref.text);
    if (!operation) continue;
    const sheet = await sheetOf(wb, ref, region.sheet);
    const value = sheet?.get(ref.rowStart, ref.colStart);
    if (typeof value !== 'string' || !value.trim() || readsAsNumber(value)) continue;
    return `${ref.text} holds the text ${describeValue(value)}, so ${operation} is #VALUE!: compute with the cells that hold the numbers it means (as the workbook view shows them)`;
  }
  return undefined;
}

/** The operation the reference is an operand of, as written (`H2*0.95`), or undefined when it is none. */
function arithmeticAround(code: string, text: string): string | undefined {
  for (let at = code.indexOf(text); at >= 0; at = code.indexOf(text, at + 1)) {
    const end = at + text.length;
    if (/[\w.$:!']/.test(code[at - 1] ?? '') || /[\w(:!]/.test(code[end] ?? '')) continue;
    const after = /^\s*([*/^+-])\s*([\w.$]+)/.exec(code.slice(end));
    if (after) return `${text}${after[1]}${after[2]}`;
    const before = /([\w.$)]+)\s*([*/^+-])\s*$/.exec(code.slice(0, at));
    if (before) return `${before[1]}${before[2]}${text}`;
  }
  return undefined;
}

/** Text Excel turns into a number in arithmetic: "5", " 1,200.50 ", "15%", "$3", a date or time such as "2020-07-01". */
function readsAsNumber(text: string): boolean {
  const t = text.trim().replace(/[,$€£]/g, '');
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?%?$/i.test(t)) return true;
  return /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}([ T]\d{1,2}:\d{2}(:\d{2})?)?$/.test(t) || /^\d{1,2}:\d{2}(:\d{2})?$/.test(t);
}
