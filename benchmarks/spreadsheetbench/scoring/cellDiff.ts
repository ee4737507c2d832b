/**
 * What the scorer found cell by cell in one test case: every checked cell that differs (capped, with a count of the
 * rest), how much of the checked range the expected answer fills, and, when no output could ever pass, why.
 * The verdict itself is the official one (compareWorkbooks.ts); this is its explanation.
 */
import { transformValue, type CellValue } from '../../workbook/cellValue';
import type { CellMismatch } from '../../report/taskView';

export { diffValue } from '../../workbook/diffValue';

export type { CellCheck, DiffValue, CellMismatch } from '../../report/taskView';

/** The expected answer's extent inside the checked range: `filled` of `cells` are not blank. */
export interface AnswerFill {
  cells: number;
  filled: number;
}

export interface TestCaseDiff {
  /** 1-based test-case index. */
  index: number;
  pass: boolean;
  /** The official verdict's reason (the first failure) when it failed. */
  reason?: string;
  /** Cells compared (over every piece of the answer position). */
  checkedCells: number;
  /** The differing cells, in the official enumeration order, at most `MAX_MISMATCHES`. */
  mismatches: CellMismatch[];
  /** Differing cells left out of `mismatches`. */
  omitted: number;
  /** null when the answer workbook could not be read. */
  fill: AnswerFill | null;
  /** Set when no output can pass this test case under the scoring mode (the cause is on the answer's side). */
  unreachable?: string;
}

/** Enough to see the pattern of a failure; the grid view shows the whole range. */
export const MAX_MISMATCHES = 100;

/** Blank as the official compare sees it (None or ""). */
export function isBlankCell(v: CellValue): boolean {
  const t = transformValue(v);
  return t.type === 'none' || (t.type === 'str' && t.value === '');
}

/** Collects mismatches up to the cap and counts the rest. */
export class MismatchList {
  readonly mismatches: CellMismatch[] = [];
  omitted = 0;

  constructor(private readonly cap = MAX_MISMATCHES) {}

  add(m: CellMismatch): void {
    if (this.mismatches.length < this.cap) this.mismatches.push(m);
    else this.omitted++;
  }
}

/** A test case's diff and the floor: whether the unchanged input already passes it (what a do-nothing agent scores). */
export interface TestCaseCells extends TestCaseDiff {
  inputPasses?: boolean;
}

/** `tasks/<key>/cell-diffs.json`: the cell diffs of one task attempt (benchmarks/spreadsheetbench/layout.ts). */
export interface TaskCellDiffs {
  taskId: string;
  id: number | string;
  mode: string;
  answerPosition: string;
  testCases: TestCaseCells[];
}
