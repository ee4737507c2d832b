/**
 * One test case, as the official `compare_workbooks` + `cell_level_compare` score it: every answer-position piece must
 * pass; a missing output, an unreadable workbook or any exception gives 0. Every verdict carries a reason.
 */
import { pathExists } from '../../../lib/runStore/files';
import type { ScoringMode, TestCaseVerdict } from './types';
import { parseAnswerPosition, cellsOf, columnName, type AnswerPiece } from './answerPosition';
import { compareCellValue, describeValue } from './cellValue';
import { openWorkbookValues, type SheetValues, type WorkbookValues } from './ooxmlReader';

export interface EvaluateTestCaseInput {
  answerPath: string;
  outputPath: string;
  answerPosition: string;
  mode?: ScoringMode;
  /** 1-based test-case index reported in the verdict. */
  index?: number;
}

/** Result of one piece: pass, or the reason it fails (an `exception` fails the whole test case in the official script). */
interface PieceResult { pass: boolean; reason?: string; exception?: boolean }


function comparisonRows(piece: AnswerPiece, gt: SheetValues, out: SheetValues) {
  const t = piece.target;
  if (t.kind === 'columns') return { ...t, rowStart: 1, rowEnd: Math.max(gt.maxRow, out.maxRow) };
  if (t.kind === 'cells') return t;
  throw new Error(t.error);
}

function pieceError(piece: AnswerPiece, error: string): PieceResult {
  return { pass: false, exception: true, reason: `answer_position piece ${JSON.stringify(piece.raw)}: ${error}` };
}

async function comparePiece(piece: AnswerPiece, gtBook: WorkbookValues, outBook: WorkbookValues): Promise<PieceResult> {
  if (piece.target.kind === 'error' && piece.target.atSheetSplit) return pieceError(piece, piece.target.error);
  const sheetName = piece.sheet ?? gtBook.sheetnames[0];
  if (sheetName === undefined) return { pass: false, exception: true, reason: 'answer workbook has no sheet (list index out of range)' };
  if (!outBook.sheetnames.includes(sheetName)) return { pass: false, reason: `worksheet ${JSON.stringify(sheetName)} not found in output` };
  if (!gtBook.sheetnames.includes(sheetName)) {
    return { pass: false, exception: true, reason: `worksheet ${JSON.stringify(sheetName)} not found in answer (KeyError)` };
  }
  if (piece.target.kind === 'error') return pieceError(piece, piece.target.error);
  const [gt, out] = await Promise.all([gtBook.sheet(sheetName), outBook.sheet(sheetName)]);
  for (const [row, col] of cellsOf(comparisonRows(piece, gt, out))) {
    const expected = gt.get(row, col);
    const actual = out.get(row, col);
    if (!compareCellValue(expected, actual)) {
      return { pass: false, reason: `${sheetName}!${columnName(col)}${row}: expected ${describeValue(expected)} got ${describeValue(actual)}` };
    }
  }
  return { pass: true };
}

async function compareAllPieces(pieces: AnswerPiece[], gtBook: WorkbookValues, outBook: WorkbookValues): Promise<PieceResult> {
  let firstFailure: PieceResult | undefined;
  for (const piece of pieces) {
    let result: PieceResult;
    try {
      result = await comparePiece(piece, gtBook, outBook);
    } catch (err) {
      result = { pass: false, exception: true, reason: `exception: ${(err as Error).message}` };
    }
    if (result.exception) return result;
    if (!result.pass) firstFailure ??= result;
  }
  return firstFailure ?? { pass: true };
}

async function openBoth(answerPath: string, outputPath: string): Promise<[WorkbookValues, WorkbookValues] | string> {
  try {
    return [await openWorkbookValues(answerPath), await openWorkbookValues(outputPath)];
  } catch (err) {
    return `load error: ${(err as Error).message}`;
  }
}

export async function evaluateTestCase(input: EvaluateTestCaseInput): Promise<TestCaseVerdict> {
  const index = input.index ?? 1;
  const verdict = (pass: boolean, reason?: string): TestCaseVerdict => (reason === undefined ? { index, pass } : { index, pass, reason });
  try {
    if (!(await pathExists(input.outputPath))) return verdict(false, 'File not exist');
    const books = await openBoth(input.answerPath, input.outputPath);
    if (typeof books === 'string') return verdict(false, books);
    const parsed = parseAnswerPosition(input.answerPosition, input.mode ?? 'official');
    const result = await compareAllPieces(parsed.pieces, ...books);
    return verdict(result.pass, result.pass ? undefined : result.reason);
  } catch (err) {
    return verdict(false, `exception: ${(err as Error).message}`);
  }
}
