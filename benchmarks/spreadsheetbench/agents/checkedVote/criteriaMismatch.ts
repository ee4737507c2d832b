import { describeValue, type CellValue } from '../../../workbook/cellValue';
import type { SheetValues, WorkbookValues } from '../../../workbook/ooxmlReader';
import { callsOf, type FormulaCall } from './formulaCalls';
import { onlyReferenceOf, sheetOf, type FormulaReference } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';

/** Where the criteria ranges of each conditional aggregate start: SUMIFS(sum, range1, crit1, …), COUNTIFS(range1, crit1, …). */
const CRITERIA_FROM: Record<string, number> = {
  SUMIFS: 1,
  AVERAGEIFS: 1,
  MAXIFS: 1,
  MINIFS: 1,
  COUNTIFS: 0,
  SUMIF: 0,
  COUNTIF: 0,
  AVERAGEIF: 0,
};
/** Functions whose result is a date, whatever their arguments hold. */
const DATE_FUNCTIONS = /^(_xlfn\.)?(EOMONTH|EDATE|DATE|DATEVALUE|TODAY)\s*\(/i;
/** Excel serials of 1954–2119: a range of such plain numbers may hold dates without a date format. */
const SERIAL_LOW = 20_000;
const SERIAL_HIGH = 80_000;
/** Cells of a criteria range looked at. */
const MAX_CELLS = 2_000;

/**
 * A conditional aggregate (SUMIFS, COUNTIFS, …) whose criterion is a date while its criteria range holds no dates on
 * the input: the condition can never hold as meant, and the sum is 0 everywhere (checked-vote-v8.1, 57105: the forum
 * user's SUMIFS compares the months with the amounts column and sums the dates; the 1.5B copied it five times). Says
 * which range of the same call holds the dates, when one does.
 */
export async function criteriaMismatch(
  wb: WorkbookValues,
  formula: string,
  region: FormulaRegion,
): Promise<{ detail: string; swap?: [string, string] } | undefined> {
  for (const call of callsOf(formula)) {
    const from = CRITERIA_FROM[call.name];
    if (from === undefined) continue;
    const pairs = call.name.endsWith('IFS') ? pairsOf(call, from) : [[call.args[0], call.args[1]]];
    for (const [rangeArg, criterionArg] of pairs) {
      if (rangeArg === undefined || criterionArg === undefined) continue;
      if (!(await isDateCriterion(wb, criterionArg, region))) continue;
      const range = onlyReferenceOf(rangeArg);
      const sheet = range && (await sheetOf(wb, range, region.sheet));
      if (!range || !sheet) continue;
      const kinds = kindsIn(sheet, range);
      if (kinds.date || !kinds.example) continue;
      const datesIn = await rangeWithDates(wb, call, region);
      const detail =
        `in ${call.text}, the criteria range ${rangeArg} holds no dates (e.g. ${describeValue(kinds.example)}), but its ` +
        `criterion ${criterionArg} is a date, so it never matches as meant${datesIn ? `: compare the dates of ${datesIn} instead (in SUMIFS the first range is the one summed)` : ''}`;
      return datesIn ? { detail, swap: [rangeArg, datesIn] } : { detail };
    }
  }
  return undefined;
}

function pairsOf(call: FormulaCall, from: number): [string | undefined, string | undefined][] {
  const out: [string | undefined, string | undefined][] = [];
  for (let i = from; i < call.args.length; i += 2) out.push([call.args[i], call.args[i + 1]]);
  return out;
}

/** `"<="&EOMONTH($A4,0)`, `">="&$B4` or `$B4` where B4 holds a date (in the first answer cell's row, on this input). */
async function isDateCriterion(wb: WorkbookValues, arg: string, region: FormulaRegion): Promise<boolean> {
  const operand = arg.replace(/^"(<=|>=|<>|<|>|=)?"\s*&\s*/, '');
  if (DATE_FUNCTIONS.test(operand)) return true;
  const ref = onlyReferenceOf(operand);
  if (!ref || ref.rowStart !== ref.rowEnd || ref.colStart !== ref.colEnd) return false;
  const sheet = await sheetOf(wb, ref, region.sheet);
  return sheet !== undefined && isDate(sheet.get(ref.rowStart, ref.colStart));
}

/** The first range argument of the call that holds dates (a sum range that should have been the criteria range). */
async function rangeWithDates(
  wb: WorkbookValues,
  call: FormulaCall,
  region: FormulaRegion,
): Promise<string | undefined> {
  for (const arg of call.args) {
    const ref = onlyReferenceOf(arg);
    if (!ref || (ref.rowStart === ref.rowEnd && ref.colStart === ref.colEnd)) continue;
    const sheet = await sheetOf(wb, ref, region.sheet);
    if (sheet && kindsIn(sheet, ref).date) return arg;
  }
  return undefined;
}

/** Whether a range holds dates (or plain numbers that could be date serials), and a value it holds. */
function kindsIn(sheet: SheetValues, ref: FormulaReference): { date: boolean; example?: CellValue } {
  let example: CellValue | undefined;
  let seen = 0;
  const lastRow = Math.min(ref.rowEnd, sheet.maxRow);
  for (let r = ref.rowStart; r <= lastRow; r++)
    for (let c = ref.colStart; c <= ref.colEnd; c++) {
      if (++seen > MAX_CELLS) return { date: false, example };
      const value = sheet.get(r, c);
      if (value === null || value === '') continue;
      if (isDate(value) || (typeof value === 'number' && value >= SERIAL_LOW && value <= SERIAL_HIGH))
        return { date: true };
      example ??= value;
    }
  return { date: false, example };
}

function isDate(value: CellValue): boolean {
  return typeof value === 'object' && value !== null && (value.kind === 'datetime' || value.kind === 'date');
}
