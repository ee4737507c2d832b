/**
 * One test case, as the official `compare_workbooks` + `cell_level_compare` score it: every answer-position piece must
 * pass; a missing output, an unreadable workbook or any exception gives 0. Every verdict carries a reason.
 *
 * The verdict is the official one; the cell diff (cellDiff.ts) explains it: where the official loop stops at a piece's
 * first differing cell, the diff goes on through every cell of every piece, so it lists all of them.
 */
import { pathExists } from '../../../lib/runStore/files';
import type { ScoringMode, TestCaseVerdict } from './types';
import { parseAnswerPosition, cellsOf, columnName, type AnswerPiece } from './answerPosition';
import { compareCellValue, describeValue } from '../../workbook/cellValue';
import { diffValue, isBlankCell, MismatchList, type AnswerFill, type TestCaseDiff } from './cellDiff';
import { openWorkbookValues, type SheetValues, type WorkbookValues } from '../../workbook/ooxmlReader';

export interface EvaluateTestCaseInput {
  answerPath: string;
  outputPath: string;
  answerPosition: string;
  mode?: ScoringMode;
  /** 1-based test-case index reported in the verdict. */
  index?: number;
  /** The answer workbook already opened (openForComparison), so one answer serves several comparisons; read when absent. */
  answer?: OpenedWorkbook;
}

/** An opened workbook, or the message of the error that kept it from opening. */
export type OpenedWorkbook = WorkbookValues | string;

/** Result of one piece: pass, or the reason it fails (an `exception` fails the whole test case in the official script). */
interface PieceResult {
  pass: boolean;
  reason?: string;
  exception?: boolean;
}

type Rows = { colStart: number; colEnd: number; rowStart: number; rowEnd: number };

function comparisonRows(piece: AnswerPiece, gt: SheetValues, out: SheetValues | undefined): Rows {
  const t = piece.target;
  if (t.kind === 'columns') return { ...t, rowStart: 1, rowEnd: Math.max(gt.maxRow, out?.maxRow ?? 0) };
  if (t.kind === 'cells') return t;
  throw new Error(t.error);
}

function pieceError(piece: AnswerPiece, error: string): PieceResult {
  return { pass: false, exception: true, reason: `answer_position piece ${JSON.stringify(piece.raw)}: ${error}` };
}

/** Where the official script raises because of the answer side (so no output can pass), or the piece's sheet. */
function answerSideOf(piece: AnswerPiece, gtBook: WorkbookValues): { error: PieceResult } | { sheet: string } {
  if (piece.target.kind === 'error' && piece.target.atSheetSplit)
    return { error: pieceError(piece, piece.target.error) };
  const sheet = piece.sheet ?? gtBook.sheetnames[0];
  if (sheet === undefined)
    return {
      error: { pass: false, exception: true, reason: 'answer workbook has no sheet (list index out of range)' },
    };
  if (!gtBook.sheetnames.includes(sheet))
    return {
      error: {
        pass: false,
        exception: true,
        reason: `worksheet ${JSON.stringify(sheet)} not found in answer (KeyError)`,
      },
    };
  if (piece.target.kind === 'error') return { error: pieceError(piece, piece.target.error) };
  return { sheet };
}

async function comparePiece(
  piece: AnswerPiece,
  gtBook: WorkbookValues,
  outBook: WorkbookValues,
  diff: CellCollector,
): Promise<PieceResult> {
  if (piece.target.kind === 'error' && piece.target.atSheetSplit) return pieceError(piece, piece.target.error);
  const sheetName = piece.sheet ?? gtBook.sheetnames[0];
  if (sheetName === undefined)
    return { pass: false, exception: true, reason: 'answer workbook has no sheet (list index out of range)' };
  // The official order: a sheet missing from the output fails the piece before the answer's sheets are looked at.
  if (!outBook.sheetnames.includes(sheetName))
    return { pass: false, reason: `worksheet ${JSON.stringify(sheetName)} not found in output` };
  const side = answerSideOf(piece, gtBook);
  if ('error' in side) return side.error;
  const [gt, out] = await Promise.all([gtBook.sheet(sheetName), outBook.sheet(sheetName)]);
  let failure: PieceResult | undefined;
  for (const [row, col] of cellsOf(comparisonRows(piece, gt, out))) {
    const expected = gt.get(row, col);
    const actual = out.get(row, col);
    diff.checked++;
    if (compareCellValue(expected, actual)) continue;
    const cell = `${sheetName}!${columnName(col)}${row}`;
    failure ??= { pass: false, reason: `${cell}: expected ${describeValue(expected)} got ${describeValue(actual)}` };
    // The verdict alone stops at the piece's first differing cell, as the official loop does.
    if (!diff.list) return failure;
    diff.list.add({
      cell,
      expected: diffValue(expected, gt.isUncachedFormula(row, col)),
      got: diffValue(actual, out.isUncachedFormula(row, col)),
      check: 'value',
    });
  }
  return failure ?? { pass: true };
}

/** Cells compared, and the differing ones when a diff is wanted (without a list: the verdict only). */
interface CellCollector {
  checked: number;
  list?: MismatchList;
}

async function compareAllPieces(
  pieces: AnswerPiece[],
  gtBook: WorkbookValues,
  outBook: WorkbookValues,
  diff: CellCollector,
): Promise<PieceResult> {
  let firstFailure: PieceResult | undefined;
  for (const piece of pieces) {
    let result: PieceResult;
    try {
      result = await comparePiece(piece, gtBook, outBook, diff);
    } catch (err) {
      result = { pass: false, exception: true, reason: `exception: ${(err as Error).message}` };
    }
    if (result.exception) return result;
    if (!result.pass) firstFailure ??= result;
  }
  return firstFailure ?? { pass: true };
}

/** What the answer alone says: how much of the checked range it fills, and whether any output can pass at all. */
async function answerSide(
  pieces: AnswerPiece[],
  gtBook: WorkbookValues,
): Promise<{ fill: AnswerFill; unreachable?: string }> {
  const fill: AnswerFill = { cells: 0, filled: 0 };
  for (const piece of pieces) {
    const side = answerSideOf(piece, gtBook);
    if ('error' in side) return { fill, unreachable: `${side.error.reason}: every output scores 0` };
    const gt = await gtBook.sheet(side.sheet);
    if (gt.kind === 'chartsheet')
      return {
        fill,
        unreachable: `answer sheet ${JSON.stringify(side.sheet)} is a chart sheet: every output scores 0`,
      };
    for (const [row, col] of cellsOf(comparisonRows(piece, gt, undefined))) {
      fill.cells++;
      if (!isBlankCell(gt.get(row, col))) fill.filled++;
    }
  }
  return { fill };
}

async function answerSideOrError(
  pieces: AnswerPiece[],
  gtBook: WorkbookValues,
): Promise<{ fill: AnswerFill | null; unreachable?: string }> {
  try {
    return await answerSide(pieces, gtBook);
  } catch (err) {
    return {
      fill: null,
      unreachable: `answer workbook cannot be read (${(err as Error).message}): every output scores 0`,
    };
  }
}

/** Opens a workbook for comparison; an unreadable one gives its error message instead of throwing. */
export async function openForComparison(file: string): Promise<OpenedWorkbook> {
  try {
    return await openWorkbookValues(file);
  } catch (err) {
    return (err as Error).message;
  }
}

/** The official verdict of one test case with its cell diff. */
export function diffTestCase(input: EvaluateTestCaseInput): Promise<TestCaseDiff> {
  return compareTestCase(input, true);
}

async function compareTestCase(input: EvaluateTestCaseInput, withDiff: boolean): Promise<TestCaseDiff> {
  const index = input.index ?? 1;
  const collector: CellCollector = { checked: 0, ...(withDiff ? { list: new MismatchList() } : {}) };
  const result = (
    pass: boolean,
    reason: string | undefined,
    answer: { fill: AnswerFill | null; unreachable?: string },
  ): TestCaseDiff => ({
    index,
    pass,
    ...(reason === undefined ? {} : { reason }),
    checkedCells: collector.checked,
    mismatches: collector.list?.mismatches ?? [],
    omitted: collector.list?.omitted ?? 0,
    fill: answer.fill,
    ...(answer.unreachable ? { unreachable: answer.unreachable } : {}),
  });
  let answer: { fill: AnswerFill | null; unreachable?: string } = { fill: null };
  try {
    const parsed = parseAnswerPosition(input.answerPosition, input.mode ?? 'official');
    const gtBook = input.answer ?? (await openForComparison(input.answerPath));
    if (typeof gtBook === 'string')
      answer = { fill: null, unreachable: `answer workbook cannot be opened (${gtBook}): every output scores 0` };
    else if (withDiff) answer = await answerSideOrError(parsed.pieces, gtBook);
    if (!(await pathExists(input.outputPath))) return result(false, 'File not exist', answer);
    if (typeof gtBook === 'string') return result(false, `load error: ${gtBook}`, answer);
    const outBook = await openForComparison(input.outputPath);
    if (typeof outBook === 'string') return result(false, `load error: ${outBook}`, answer);
    const compared = await compareAllPieces(parsed.pieces, gtBook, outBook, collector);
    return result(compared.pass, compared.pass ? undefined : compared.reason, answer);
  } catch (err) {
    return result(false, `exception: ${(err as Error).message}`, answer);
  }
}

/** The official verdict of one test case (no diff: it stops at each piece's first differing cell). */
export async function evaluateTestCase(input: EvaluateTestCaseInput): Promise<TestCaseVerdict> {
  const { index, pass, reason } = await compareTestCase(input, false);
  return reason === undefined ? { index, pass } : { index, pass, reason };
}
