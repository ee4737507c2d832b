import { columnName, parseAnswerPosition } from '../../scoring/answerPosition';
import { cellText, compareCellValue, type CellValue } from '../../../workbook/cellValue';
import { openWorkbookValues, type SheetValues, type WorkbookValues } from '../../../workbook/ooxmlReader';
import type { Problem } from './checks';

/** Rows of the user's example compared (the view shows as many: workbook_view.py EXAMPLE_ROWS). */
const EXAMPLE_ROWS = 3;
/** Rows of a sheet searched for the example's header row (as the view does). */
const SEARCH_ROWS = 60;
/** Rows above the region's first row, and inside it, where its table's header row may be. */
const HEADER_ABOVE = 3;
const HEADER_INSIDE = 2;

/** Where the answer region's table's header row is repeated: the user's worked example of the result. */
export interface ExampleTable {
  sheet: string;
  /** The region's sheet, its table's header row and the region's columns and last row. */
  regionSheet: string;
  header: number;
  colStart: number;
  colEnd: number;
  rowEnd: number;
  /** The table's header columns (the contiguous header run around the region's columns). */
  tableStart: number;
  tableEnd: number;
  /** The example's header row, and its columns' offset from the table's. */
  exampleHeader: number;
  offset: number;
}

/**
 * The user's example of the result (checked-vote-v14): where the header names of the answer region's table appear
 * again (another sheet, or other columns of the same sheet), as forum workbooks show the expected result ('After',
 * 'Expected Result', 'Output'; 5 of the 20 dev20 inputs; the view's line since v12). Undefined for a region of more
 * than one piece or a whole-column one, or when no such repeat exists.
 */
export async function exampleTableOf(wb: WorkbookValues, answerPosition: string): Promise<ExampleTable | undefined> {
  const pieces = parseAnswerPosition(answerPosition, 'strict').pieces;
  const piece = pieces[0];
  if (pieces.length !== 1 || piece.target.kind !== 'cells') return undefined;
  const regionSheet = piece.sheet ?? wb.sheetnames[0];
  if (!wb.sheetnames.includes(regionSheet)) return undefined;
  const sheet = await wb.sheet(regionSheet);
  const { rowStart, rowEnd, colStart, colEnd } = piece.target;
  for (const header of headerRowsToTry(rowStart, rowEnd)) {
    const [tableStart, tableEnd] = headerRun(sheet, header, colStart, colEnd);
    const names = headerNames(sheet, header, tableStart, tableEnd);
    if (names.length < 2) continue;
    const found = await repeatOf(wb, names, { sheet: regionSheet, row: header });
    if (found) return { ...found, regionSheet, header, colStart, colEnd, rowEnd, tableStart, tableEnd };
  }
  return undefined;
}

/**
 * What a candidate's output gets wrong against the user's example, on one test case: for each of the first data rows
 * whose example belongs to this input (every text of the example's row is found in the input's row: a stale example
 * beside changed data, or an example of other data, 208-20's, is not applied), the region's cells must equal the
 * example's. At least two such rows are needed. Undefined when the example does not apply or the output agrees.
 */
export async function exampleMismatch(
  table: ExampleTable,
  inputFile: string,
  outputFile: string,
): Promise<string | undefined> {
  const input = await openWorkbookValues(inputFile);
  if (!input.sheetnames.includes(table.sheet) || !input.sheetnames.includes(table.regionSheet)) return undefined;
  const [source, example] = [await input.sheet(table.regionSheet), await input.sheet(table.sheet)];
  const output = await openWorkbookValues(outputFile);
  if (!output.sheetnames.includes(table.regionSheet)) return undefined;
  const written = await output.sheet(table.regionSheet);
  let applied = 0;
  const wrong: string[] = [];
  for (let k = 0; k < EXAMPLE_ROWS; k++) {
    const row = table.header + 1 + k;
    const exampleRow = table.exampleHeader + 1 + k;
    if (row > table.rowEnd || !belongsTo(example, exampleRow, source, row, table)) continue;
    applied++;
    for (let col = table.colStart; col <= table.colEnd; col++) {
      const expected = example.get(exampleRow, col + table.offset);
      const got = written.get(row, col);
      if (!compareCellValue(expected, got))
        wrong.push(
          `${columnName(col)}${row} = ${shown(got)} where '${table.sheet}'!${columnName(col + table.offset)}${exampleRow} shows ${shown(expected)}`,
        );
    }
  }
  if (applied < 2 || !wrong.length) return undefined;
  return `the workbook shows the expected result for these rows at '${table.sheet}'!${columnName(table.tableStart + table.offset)}${table.exampleHeader} (the same column headers), and this output differs from it: ${wrong.slice(0, 3).join('; ')}${wrong.length > 3 ? `; ${wrong.length - 3} more` : ''}: make the program give what the example shows, for every row`;
}

/** The check on a Python or formula candidate's outputs against the user's example, per test case. */
export async function exampleProblems(
  table: ExampleTable | undefined,
  runs: { testCase: number; inputFile?: string; outputFile?: string }[],
): Promise<Problem[]> {
  if (!table) return [];
  const problems: Problem[] = [];
  for (const run of runs) {
    if (!run.inputFile || !run.outputFile) continue;
    const detail = await exampleMismatch(table, run.inputFile, run.outputFile);
    if (detail) problems.push({ kind: 'example_mismatch', testCase: run.testCase, detail });
  }
  return problems;
}

/**
 * Whether an example row shows the result for the input's row: its region cells are not all empty (212-20's 'Output'
 * leaves a row's pieces out), each text of it is found in the input's row (230-16's split pieces are in the text they
 * came from), and each cell of the input's row outside the region is found in it (599-9's third input dates row 4
 * anew, and the example still shows the old date: stale there).
 */
function belongsTo(
  example: SheetValues,
  exampleRow: number,
  source: SheetValues,
  row: number,
  table: ExampleTable,
): boolean {
  const columns: number[] = [];
  for (let col = table.tableStart; col <= table.tableEnd; col++) columns.push(col);
  const inRegion = (col: number) => col >= table.colStart && col <= table.colEnd;
  const exampleTexts = columns.map((col) => cellText(example.get(exampleRow, col + table.offset)).trim());
  const sourceTexts = columns.map((col) => cellText(source.get(row, col)).trim());
  if (columns.every((col, i) => !inRegion(col) || !exampleTexts[i])) return false;
  const foundIn = (texts: string[]) => (text: string) => !text || texts.some((t) => t.includes(text));
  return (
    exampleTexts.every(foundIn(sourceTexts)) &&
    columns.every((col, i) => inRegion(col) || foundIn(exampleTexts)(sourceTexts[i]))
  );
}

/** The region's first row, the rows above it, then its next rows (208-20's header is its region's second row). */
function headerRowsToTry(rowStart: number, rowEnd: number): number[] {
  const rows: number[] = [];
  for (let row = rowStart; row >= Math.max(1, rowStart - HEADER_ABOVE); row--) rows.push(row);
  for (let row = rowStart + 1; row <= Math.min(rowEnd, rowStart + HEADER_INSIDE); row++) rows.push(row);
  return rows;
}

/** The contiguous run of filled header cells around the region's columns (the region's own when that is all). */
function headerRun(sheet: SheetValues, row: number, colStart: number, colEnd: number): [number, number] {
  const filled = (col: number) => col >= 1 && col <= sheet.maxColumn && cellText(sheet.get(row, col)).trim() !== '';
  let start = colStart;
  let end = colEnd;
  while (filled(start - 1)) start--;
  while (filled(end + 1)) end++;
  return [start, end];
}

function headerNames(sheet: SheetValues, row: number, from: number, to: number): { col: number; name: string }[] {
  const names: { col: number; name: string }[] = [];
  for (let col = from; col <= to; col++) {
    const v = sheet.get(row, col);
    if (typeof v === 'string' && v.trim()) names.push({ col, name: v.trim().toLowerCase() });
  }
  return names;
}

/** The first other place (sheet, row, column offset) where all the names stand at the same distances. */
async function repeatOf(
  wb: WorkbookValues,
  names: { col: number; name: string }[],
  own: { sheet: string; row: number },
): Promise<{ sheet: string; exampleHeader: number; offset: number } | undefined> {
  const [first] = names;
  for (const name of wb.sheetnames) {
    const sheet = await wb.sheet(name);
    if (sheet.kind !== 'worksheet') continue;
    for (let row = 1; row <= Math.min(sheet.maxRow, SEARCH_ROWS); row++)
      for (let col = 1; col <= sheet.maxColumn; col++) {
        const offset = col - first.col;
        if (first.col + offset < 1 || (name === own.sheet && row === own.row && offset === 0)) continue;
        const at = (c: number) => sheet.get(row, c + offset);
        if (names.every((n) => typeof at(n.col) === 'string' && (at(n.col) as string).trim().toLowerCase() === n.name))
          return { sheet: name, exampleHeader: row, offset };
      }
  }
  return undefined;
}

function shown(v: CellValue): string {
  const text = v === null ? 'empty' : JSON.stringify(cellText(v));
  return text.length > 70 ? `${text.slice(0, 67)}…"` : text;
}
