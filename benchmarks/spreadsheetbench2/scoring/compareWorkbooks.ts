/**
 * evaluation.py's `compare_workbooks_with_regression` and its helpers: every cell of the answer position is a
 * regression cell (input equals answer) or a modification cell; the output is compared with the answer on both sets.
 * Cells holding an Excel error value are compared by formula; Debugging's `Color` paths add the font colour, its
 * `Embedded` paths compare formulas only.
 */
import { existsSync } from 'node:fs';
import { openWorkbookValues, type WorkbookValues } from '../../workbook/ooxmlReader';
import { describeValue } from '../../workbook/cellValue';
import { openWorkbookDetails, type WorkbookDetails } from './workbookDetails';
import { compareCellFormula, compareCellValueV2, hasExcelError, type ScoredValue } from './compareCell';
import { sameFontColour } from './fontColour';
import { generateCellNames, parseCellName, pyStrip, splitAnswerPosition, splitPiece } from './cellNames';

export interface CompareMode {
  withFontColour: boolean;
  withFormula: boolean;
}

export interface CellCounts {
  correct: number;
  total: number;
}

/** Which comparison a cell failed: its value, its formula (`Embedded`, or an error value compared by formula), its font colour. */
export type CellCheckV2 = 'value' | 'formula' | 'font';

/** A regression or modification cell whose output differs from the answer (not in the official file: for `show`). */
export interface CellDifference {
  /** `Sheet!A1`, the sheet as the answer position names it. */
  cell: string;
  kind: 'regression' | 'modification';
  check: CellCheckV2;
  expected: ScoredValue;
  got: ScoredValue;
}

/** Differing cells kept per task; the rest are counted. */
export const MAX_DIFFERENCES = 100;

export interface WorkbookComparison {
  isCorrect: boolean;
  errorMessage: string;
  regression: CellCounts;
  modification: CellCounts;
  /** The first MAX_DIFFERENCES differing cells, and how many more there were. */
  differences: CellDifference[];
  omittedDifferences: number;
  /** The workbook that could not be read (the message is `errorMessage`, as openpyxl's load reports it). */
  unreadable?: 'input' | 'answer' | 'output';
}

interface Book {
  values: WorkbookValues;
  details: WorkbookDetails;
}

/** One worksheet of a book as the evaluator reads it in one load mode. */
class Sheet {
  constructor(
    private readonly book: Book,
    private readonly name: string,
    private readonly formulas: boolean,
  ) {}

  async value(cell: string): Promise<ScoredValue> {
    const [row, col] = parseCellName(cell);
    const cached = (await this.book.values.sheet(this.name)).get(row, col);
    if (!this.formulas) return cached;
    return this.book.details.sheet(this.name).formula(row, col) ?? cached;
  }

  fontColour(cell: string) {
    const [row, col] = parseCellName(cell);
    return this.book.details.sheet(this.name).fontColour(row, col);
  }
}

/** `_find_sheet`: the exact name, else the first name equal after strip() and lower(). */
export function findSheetName(sheetnames: readonly string[], name: string): string | undefined {
  if (sheetnames.includes(name)) return name;
  const wanted = pyStrip(name).toLowerCase();
  return sheetnames.find((s) => pyStrip(s).toLowerCase() === wanted);
}

function findSheet(book: Book, name: string, formulas: boolean): Sheet | undefined {
  const found = findSheetName(book.values.sheetnames, name);
  return found === undefined ? undefined : new Sheet(book, found, formulas);
}

async function openBook(file: string): Promise<Book> {
  const values = await openWorkbookValues(file); // first: its errors are the ones openpyxl's load reports
  return { values, details: await openWorkbookDetails(file) };
}

interface Pair {
  a: Sheet;
  b: Sheet;
  /** Formula-mode sheets for the error-value fallback (absent in `Embedded` mode). */
  af?: Sheet;
  bf?: Sheet;
}

/** `_compare_cells` with the error-value fallback of the classification and comparison loops: what differs, if anything. */
async function cellDifference(p: Pair, cell: string, mode: CompareMode): Promise<CellCheckV2 | undefined> {
  const va = await p.a.value(cell);
  const vb = await p.b.value(cell);
  if (!mode.withFormula && p.af && p.bf && (hasExcelError(va) || hasExcelError(vb)))
    return compareCellFormula(await p.af.value(cell), await p.bf.value(cell)) ? undefined : 'formula';
  if (mode.withFormula) return compareCellFormula(va, vb) ? undefined : 'formula';
  if (!compareCellValueV2(va, vb)) return 'value';
  return !mode.withFontColour || sameFontColour(p.a.fontColour(cell), p.b.fontColour(cell)) ? undefined : 'font';
}

const textOf = (v: ScoredValue) =>
  typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'arrayFormula'
    ? v.text
    : typeof v === 'string'
      ? v
      : typeof v === 'object' && v !== null && v.kind === 'dataTableFormula'
        ? 'DataTableFormula'
        : describeValue(v);

interface Books {
  input: Book;
  answer: Book;
  output: Book;
}

async function comparePiece(
  books: Books,
  piece: string,
  mode: CompareMode,
  totals: WorkbookComparison,
  msgs: string[],
) {
  const { sheet, range } = splitPiece(piece, () => books.answer.values.sheetnames[0]);
  const valuesMode = mode.withFormula;
  const fallback = !mode.withFormula;
  const pairOf = (a: Book, b: Book): Pair | undefined => {
    const sa = findSheet(a, sheet, valuesMode);
    const sb = findSheet(b, sheet, valuesMode);
    if (!sa || !sb) return undefined;
    return fallback ? { a: sa, b: sb, af: findSheet(a, sheet, true), bf: findSheet(b, sheet, true) } : { a: sa, b: sb };
  };
  const regression: string[] = [];
  const modification: string[] = [];
  const classify = pairOf(books.input, books.answer);
  if (classify)
    for (const cell of generateCellNames(range))
      ((await cellDifference(classify, cell, mode)) === undefined ? regression : modification).push(cell);
  totals.regression.total += regression.length;
  totals.modification.total += modification.length;
  const compare = pairOf(books.answer, books.output);
  if (!findSheet(books.output, sheet, valuesMode)) {
    msgs.push(`${sheet} worksheet not found`);
    return;
  }
  for (const [cells, label, counts] of [
    [regression, 'Regression', totals.regression],
    [modification, 'Modification', totals.modification],
  ] as const) {
    for (const cell of cells) {
      const check = await cellDifference(compare!, cell, mode);
      if (check === undefined) {
        counts.correct++;
        continue;
      }
      const expected = await compare!.a.value(cell);
      const got = await compare!.b.value(cell);
      msgs.push(`${label} error at ${sheet}!${cell}: answer=${textOf(expected)}, output=${textOf(got)}`);
      if (totals.differences.length < MAX_DIFFERENCES)
        totals.differences.push({
          cell: `${sheet}!${cell}`,
          kind: label === 'Regression' ? 'regression' : 'modification',
          check,
          expected,
          got,
        });
      else totals.omittedDifferences++;
    }
  }
}

/** `compare_workbooks_with_regression(input_file, gt_file, proc_file, answer_position, …)`. */
export async function compareWorkbooksWithRegression(
  files: { input: string; answer: string; output: string },
  answerPosition: string,
  mode: CompareMode,
): Promise<WorkbookComparison> {
  const result: WorkbookComparison = {
    isCorrect: false,
    errorMessage: '',
    regression: { correct: 0, total: 0 },
    modification: { correct: 0, total: 0 },
    differences: [],
    omittedDifferences: 0,
  };
  if (!existsSync(files.output)) return { ...result, errorMessage: 'output file not exist' };
  if (!existsSync(files.input)) return { ...result, errorMessage: 'input file not exist' };
  const books: Partial<Books> = {};
  for (const which of ['input', 'answer', 'output'] as const) {
    try {
      books[which] = await openBook(files[which]);
    } catch (err) {
      return { ...result, errorMessage: (err as Error).message, unreadable: which };
    }
  }
  const msgs: string[] = [];
  for (const piece of splitAnswerPosition(answerPosition))
    await comparePiece(books as Books, piece, mode, result, msgs);
  const correct = result.regression.correct + result.modification.correct;
  result.isCorrect = correct === result.regression.total + result.modification.total;
  result.errorMessage = result.isCorrect ? '' : (msgs.find(Boolean) ?? '');
  return result;
}
