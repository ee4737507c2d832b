import { columnName } from '../../scoring/answerPosition';
import { describeValue, type CellValue } from '../../../workbook/cellValue';
import type { SheetValues, WorkbookValues } from '../../../workbook/ooxmlReader';
import { referencesOf, sheetOf, type FormulaReference } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';
import { rowsMoved } from './causeMends';

/** A fixed range that starts below the first rows of its column's data, and where it should start. */
export interface LateStart {
  /** As written ("$K$7:$K$57"). */
  text: string;
  /** The row its data starts at (4). */
  row: number;
  /** The same range from the first data row ("$K$4:$K$57"). */
  from: string;
  /** The rows left out ("K4:K6"), a value they hold, and the header above them, when there is one. */
  skipped: string;
  sample: string;
  header?: string;
}

/** Rows a table range spans at least before its start is judged (a 2-row range is a window, not a table). */
const MIN_ROWS = 3;
/** Rows looked up above a range's start. */
const MAX_ROWS_ABOVE = 500;

/**
 * Ranges whose start row is fixed (`$K$7`) and that leave out numbers or dates right above it, in an unbroken run up
 * to the column's header or top (checked-vote-v9, 57105: the forum formula sums `$K$7:$K$57` by `$L$7:$L$57`, the
 * payments start at row 4 under "AMOUNT DUE", and the three rows left out are January's). Judged on the first column
 * of the range, for numbers and dates only (a text column's header cannot be told from its data).
 */
export async function lateStarts(wb: WorkbookValues, formula: string, region: FormulaRegion): Promise<LateStart[]> {
  const out: LateStart[] = [];
  for (const ref of referencesOf(formula)) {
    if (!ref.anchored.startRow || ref.rowEnd - ref.rowStart + 1 < MIN_ROWS) continue;
    if (out.some((l) => l.text === ref.text)) continue;
    const sheet = await sheetOf(wb, ref, region.sheet);
    const late = sheet && lateStartOf(ref, sheet);
    if (late) out.push(late);
  }
  return out;
}

function lateStartOf(ref: FormulaReference, sheet: SheetValues): LateStart | undefined {
  const col = ref.colStart;
  const kind = kindOf(firstValue(ref, sheet));
  if (kind === undefined) return undefined;
  let top = ref.rowStart;
  while (top > 1 && ref.rowStart - top < MAX_ROWS_ABOVE && kindOf(sheet.get(top - 1, col)) === kind) top--;
  if (top === ref.rowStart) return undefined;
  const above = sheet.get(top - 1, col);
  const letter = columnName(col);
  return {
    text: ref.text,
    row: top,
    from: rowsMoved(ref.text, top, ref),
    skipped: `${letter}${top}:${letter}${ref.rowStart - 1}`,
    sample: describeValue(sheet.get(top, col)),
    ...(typeof above === 'string' && above.trim() ? { header: above.trim() } : {}),
  };
}

function firstValue(ref: FormulaReference, sheet: SheetValues): CellValue {
  for (let r = ref.rowStart; r <= Math.min(ref.rowEnd, sheet.maxRow); r++) {
    const v = sheet.get(r, ref.colStart);
    if (v !== null && v !== '') return v;
  }
  return null;
}

function kindOf(value: CellValue): 'number' | 'date' | undefined {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'object' && value !== null && (value.kind === 'datetime' || value.kind === 'date'))
    return 'date';
  return undefined;
}

/** The problem's text. */
export function describeLateStarts(late: LateStart[]): string {
  return late
    .map(
      (l) =>
        `${l.text} starts below its column's first data: ${l.skipped}${l.header ? ` (under ${JSON.stringify(l.header)})` : ''} hold more of it (e.g. ${l.sample}), left out: use ${l.from}`,
    )
    .join('; ');
}
