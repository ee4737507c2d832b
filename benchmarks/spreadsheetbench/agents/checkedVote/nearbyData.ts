import { columnName } from '../../scoring/answerPosition';
import { describeValue } from '../../../workbook/cellValue';
import { columnIndex, type SheetValues } from '../../../workbook/ooxmlReader';
import { filledSpan } from './formulaFill';
import { blankIn, isEmpty, type FormulaReference } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';

/** A reference moved sideways to where the data is: as the formula would write it, and what it reads first. */
export interface NearbyData {
  text: string;
  /** Its first cell's value, described. */
  sample: string;
  /** The text above that cell in its column (the column's header), when there is one. */
  header?: string;
}

/** Columns looked at on each side of an empty reference (farther off, data is rarely what was meant). */
const MAX_SHIFT = 2;
/** Rows looked up for a column's header. */
const HEADER_ROWS = 30;

/**
 * For a reference that reads only empty cells: the same reference moved 1, 2, … columns left or right, nearest
 * first, where it reads data wherever the formula is filled (checked-vote-v8.1, 57105: the feedback "reads only empty
 * cells through $A4" did not move the 1.5B in five tries; the months it needs are one column over, in $B4).
 */
export function nearbyWithData(
  ref: FormulaReference,
  sheet: SheetValues,
  region: FormulaRegion,
  /** The reference reads the answer region's sheet. */
  onRegionSheet: boolean,
  limit = 2,
): NearbyData[] {
  const found: NearbyData[] = [];
  for (let shift = 1; shift <= MAX_SHIFT && found.length < limit; shift++)
    for (const side of [-1, 1]) {
      const moved = { ...ref, colStart: ref.colStart + side * shift, colEnd: ref.colEnd + side * shift };
      if (moved.colStart < 1 || found.length >= limit || (onRegionSheet && inRegionColumns(moved, region))) continue;
      if (isEmpty(filledSpan(moved, region.rows, region.columns), blankIn(sheet))) continue;
      const header = headerAbove(sheet, moved.rowStart, moved.colStart);
      found.push({
        text: referenceText(moved),
        sample: describeValue(sheet.get(moved.rowStart, moved.colStart)),
        ...(header === undefined ? {} : { header }),
      });
    }
  return found;
}

/** Whether a reference reads the answer region's own columns (the cells the formula fills are not its data). */
function inRegionColumns(ref: FormulaReference, region: FormulaRegion): boolean {
  const first = columnIndex(region.first.replace(/\d+$/, ''));
  return ref.colStart <= first + region.columns - 1 && ref.colEnd >= first;
}

/** A reference written as the formula wrote the original: its sheet prefix and its `$` anchors kept. */
export function referenceText(ref: FormulaReference): string {
  const bang = ref.text.lastIndexOf('!');
  const prefix = bang >= 0 ? ref.text.slice(0, bang + 1) : '';
  const a = ref.anchored;
  const cell = (col: number, row: number, colFixed: boolean, rowFixed: boolean) =>
    `${colFixed ? '$' : ''}${columnName(col)}${rowFixed ? '$' : ''}${row}`;
  const start = cell(ref.colStart, ref.rowStart, a.startColumn, a.startRow);
  const single = ref.rowStart === ref.rowEnd && ref.colStart === ref.colEnd && !ref.text.includes(':');
  return single ? `${prefix}${start}` : `${prefix}${start}:${cell(ref.colEnd, ref.rowEnd, a.endColumn, a.endRow)}`;
}

function headerAbove(sheet: SheetValues, row: number, col: number): string | undefined {
  for (let r = row - 1; r >= Math.max(1, row - HEADER_ROWS); r--) {
    const value = sheet.get(r, col);
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}
