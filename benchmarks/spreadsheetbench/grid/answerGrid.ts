/**
 * One test case as three spreadsheet grids of its answer range, side by side: the input the agent got, the expected
 * answer and the output it produced, each cell as Excel shows it (its number format), and every output cell that the
 * official compare rejects marked with why. Large ranges are cut to the used area and a window of rows and columns.
 */
import { pathExists } from '../../../lib/runStore/files';
import { cellsOf, columnName, parseAnswerPosition, type AnswerPiece } from '../scoring/answerPosition';
import { compareCellValue, type CellValue } from '../../workbook/cellValue';
import { diffValue } from '../scoring/cellDiff';
import { openWorkbookValues, type SheetValues, type WorkbookValues } from '../../workbook/ooxmlReader';
import type { ScoringMode } from '../scoring/types';
import type { AnswerGrid, GridCell, GridPiece } from '../../report/taskView';
import { formatCell } from './numberFormat';

export const MAX_GRID_ROWS = 200;
export const MAX_GRID_COLUMNS = 30;

export interface AnswerGridInput {
  answerPath: string;
  inputPath?: string;
  outputPath?: string;
  answerPosition: string;
  mode: ScoringMode;
}

type Book = { book?: WorkbookValues; problem?: string };

async function openBook(label: string, file: string | undefined): Promise<Book> {
  if (!file || !(await pathExists(file)))
    return { problem: `no ${label} workbook${label === 'output' ? ' (the agent wrote none for this test case)' : ''}` };
  try {
    return { book: await openWorkbookValues(file) };
  } catch (err) {
    return { problem: `the ${label} workbook cannot be opened: ${(err as Error).message}` };
  }
}

export async function answerGrid(input: AnswerGridInput): Promise<AnswerGrid> {
  const [answer, given, output] = await Promise.all([
    openBook('expected (answer)', input.answerPath),
    openBook('input', input.inputPath),
    openBook('output', input.outputPath),
  ]);
  const problems = [answer, given, output].flatMap((b) => (b.problem ? [b.problem] : []));
  if (!answer.book) return { pieces: [], problems };
  const pieces: GridPiece[] = [];
  for (const piece of parseAnswerPosition(input.answerPosition, input.mode).pieces) {
    const shown = await pieceGrid(piece, answer.book, given.book, output.book, problems);
    if (shown) pieces.push(shown);
  }
  return { pieces, problems };
}

async function sheetOf(
  book: WorkbookValues | undefined,
  name: string,
  label: string,
  problems: string[],
): Promise<SheetValues | undefined> {
  if (!book) return undefined;
  if (!book.sheetnames.includes(name)) {
    problems.push(`the ${label} workbook has no sheet ${JSON.stringify(name)}`);
    return undefined;
  }
  const sheet = await book.sheet(name);
  if (sheet.kind !== 'worksheet') {
    problems.push(`${label} sheet ${JSON.stringify(name)} is a chart sheet`);
    return undefined;
  }
  return sheet;
}

async function pieceGrid(
  piece: AnswerPiece,
  answerBook: WorkbookValues,
  inputBook: WorkbookValues | undefined,
  outputBook: WorkbookValues | undefined,
  problems: string[],
): Promise<GridPiece | undefined> {
  const t = piece.target;
  if (t.kind === 'error') {
    problems.push(`answer_position piece ${JSON.stringify(piece.raw)} cannot be read: ${t.error}`);
    return undefined;
  }
  const name = piece.sheet ?? answerBook.sheetnames[0] ?? '';
  const expected = await sheetOf(answerBook, name, 'expected (answer)', problems);
  if (!expected) return undefined;
  const given = await sheetOf(inputBook, name, 'input', problems);
  const got = await sheetOf(outputBook, name, 'output', problems);
  const books = [expected, given, got].filter((s): s is SheetValues => s !== undefined);
  const usedRows = Math.max(...books.map((s) => s.maxRow));
  const usedCols = Math.max(...books.map((s) => s.maxColumn));
  const full = t.kind === 'columns' ? { colStart: t.colStart, colEnd: t.colEnd, rowStart: 1, rowEnd: usedRows } : t;
  if (full.colStart > full.colEnd || full.rowStart > full.rowEnd) {
    problems.push(`answer_position piece ${JSON.stringify(piece.raw)} covers no cell (it always passes)`);
    return undefined;
  }
  const rowEnd = Math.min(full.rowEnd, Math.max(full.rowStart, usedRows), full.rowStart + MAX_GRID_ROWS - 1);
  const colEnd = Math.min(full.colEnd, Math.max(full.colStart, usedCols), full.colStart + MAX_GRID_COLUMNS - 1);
  const window = { colStart: full.colStart, colEnd, rowStart: full.rowStart, rowEnd };
  const rows = range(window.rowStart, window.rowEnd);
  const columns = range(window.colStart, window.colEnd).map(columnName);
  const cellOf = (sheet: SheetValues, r: number, c: number): GridCell => {
    const v = sheet.get(r, c);
    return { text: formatCell(v, sheet.numberFormat(r, c)), type: diffValue(v).type };
  };
  const gridOf = (sheet: SheetValues | undefined) =>
    sheet ? rows.map((r) => range(window.colStart, window.colEnd).map((c) => cellOf(sheet, r, c))) : null;
  const gotRows = gridOf(got);
  let mismatches = 0;
  if (gotRows) {
    rows.forEach((r, i) =>
      range(window.colStart, window.colEnd).forEach((c, j) => {
        const e = expected.get(r, c);
        const o = got!.get(r, c);
        if (compareCellValue(e, o)) return;
        mismatches++;
        gotRows[i][j].mismatch =
          `expected ${describe(e, expected.isUncachedFormula(r, c))}, got ${describe(o, got!.isUncachedFormula(r, c))}`;
      }),
    );
  }
  const outside = got ? countOutside(full, window, expected, got) : 0;
  const cutRows = full.rowEnd > rowEnd && usedRows > rowEnd;
  const cutCols = full.colEnd > colEnd && usedCols > colEnd;
  return {
    sheet: name,
    piece: piece.raw,
    shown: `${columns[0]}${rows[0]}:${columns[columns.length - 1]}${rows[rows.length - 1]}`,
    columns,
    rows,
    input: gridOf(given),
    expected: gridOf(expected),
    got: gotRows,
    mismatches: mismatches + outside,
    ...(cutRows || cutCols || outside
      ? {
          cut: `showing ${columns[0]}${rows[0]}:${columns[columns.length - 1]}${rows[rows.length - 1]} of the used part of ${piece.raw}${outside ? `; ${outside} more differing cells outside it` : ''}`,
        }
      : {}),
  };
}

function describe(v: CellValue, uncached: boolean): string {
  const d = diffValue(v, uncached);
  return `${d.value === null ? '(empty)' : JSON.stringify(d.value)} (${d.type}${uncached ? ', formula without cached value' : ''})`;
}

/** Differing cells of the full range outside the shown window (the count stays honest when the grid is cut). */
function countOutside(
  full: { colStart: number; colEnd: number; rowStart: number; rowEnd: number },
  window: { colStart: number; colEnd: number; rowStart: number; rowEnd: number },
  expected: SheetValues,
  got: SheetValues,
): number {
  let n = 0;
  const rowEnd = Math.min(full.rowEnd, Math.max(expected.maxRow, got.maxRow));
  const colEnd = Math.min(full.colEnd, Math.max(expected.maxColumn, got.maxColumn));
  for (const [r, c] of cellsOf({ ...full, rowEnd, colEnd })) {
    const inside = r >= window.rowStart && r <= window.rowEnd && c >= window.colStart && c <= window.colEnd;
    if (!inside && !compareCellValue(expected.get(r, c), got.get(r, c))) n++;
  }
  return n;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}
