import { columnName, parseAnswerPosition } from '../../scoring/answerPosition';

/**
 * The answer region a formula candidate fills: one rectangle of cells on one sheet. The formula is written for its
 * top-left cell and filled down and right across it, as Excel's fill handle does (relative references shift).
 */
export interface FormulaRegion {
  /** null: the workbook's first sheet (an unqualified answer_position, as the scorer reads it). */
  sheet: string | null;
  /** The top-left cell, e.g. "C4": the cell the model writes the formula for. */
  first: string;
  /** The whole region, e.g. "C4:C15" (a single cell is "C4"). */
  range: string;
  rows: number;
  columns: number;
}

/** Cells a formula candidate fills at most (a bigger region is a sheet rewrite, not a fill). */
const MAX_FORMULA_CELLS = 5_000;

/**
 * The region a formula candidate can fill, or undefined when the answer position is not one rectangle of cells (a
 * comma list, whole columns, an unparsable piece, or too many cells): such a task gets Python candidates only.
 */
export function formulaRegionOf(answerPosition: string): FormulaRegion | undefined {
  const pieces = parseAnswerPosition(answerPosition, 'strict').pieces;
  if (pieces.length !== 1) return undefined;
  const [{ sheet, target }] = pieces;
  if (target.kind !== 'cells') return undefined;
  const rows = target.rowEnd - target.rowStart + 1;
  const columns = target.colEnd - target.colStart + 1;
  if (rows < 1 || columns < 1 || rows * columns > MAX_FORMULA_CELLS) return undefined;
  const first = `${columnName(target.colStart)}${target.rowStart}`;
  const last = `${columnName(target.colEnd)}${target.rowEnd}`;
  return { sheet, first, range: first === last ? first : `${first}:${last}`, rows, columns };
}

/** How the region is filled from its first cell, in words for the prompt. */
export function fillDescription(region: FormulaRegion): string {
  const [, lastCell] = region.range.split(':');
  if (!lastCell) return `The answer region is the single cell ${region.first}.`;
  const lastRow = lastCell.replace(/^[A-Z]+/, '');
  const lastColumn = lastCell.replace(/\d+$/, '');
  const ways = [
    region.rows > 1 ? `down to row ${lastRow}` : '',
    region.columns > 1 ? `right to column ${lastColumn}` : '',
  ].filter(Boolean);
  return (
    `The answer region is ${region.range} (${region.rows * region.columns} cells). Write the formula for its first ` +
    `cell ${region.first}; the harness fills it ${ways.join(' and ')}, like Excel's fill handle: relative references ` +
    'shift with each cell, references anchored with $ stay.'
  );
}
