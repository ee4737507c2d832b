/**
 * `tasks/<key>/cell-diffs.json` of a SpreadsheetBench 2 task: the regression and modification cells checked and found
 * right, the first differing cells (kind, check, expected, got) and the official error message. The verdict is the
 * official one (scoring/); this is its explanation, for `show` and the task page.
 */
import { z } from 'zod';
import type { CellMismatch, CellTally } from '../../report/taskView';
import { diffValue } from '../../workbook/diffValue';
import type { CellCounts, CellDifference, WorkbookComparison } from '../scoring/compareWorkbooks';
import type { ScoredValue } from '../scoring/compareCell';
import { pyRound } from '../../workbook/pyNumber';

export interface V2CellDiffs {
  taskId: string;
  answerPosition: string;
  /** The official `error_message` ('' when the task passed). */
  errorMessage: string;
  regression: CellTally;
  modification: CellTally;
  mismatches: CellMismatch[];
  omitted: number;
  unreadable?: 'input' | 'answer' | 'output';
}

const diffValueSchema = z.looseObject({
  value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
  type: z.enum(['empty', 'number', 'text', 'bool', 'datetime', 'date', 'time', 'duration']),
  uncachedFormula: z.literal(true).optional(),
});
const tallySchema = z.looseObject({ correct: z.number(), total: z.number(), accuracy: z.number() });

export const v2CellDiffsSchema = z.looseObject({
  taskId: z.string(),
  answerPosition: z.string(),
  errorMessage: z.string(),
  regression: tallySchema,
  modification: tallySchema,
  mismatches: z.array(
    z.looseObject({
      cell: z.string(),
      expected: diffValueSchema,
      got: diffValueSchema,
      check: z.enum(['value', 'fill', 'font', 'formula']),
      kind: z.enum(['regression', 'modification']).optional(),
    }),
  ),
  omitted: z.number(),
  unreadable: z.enum(['input', 'answer', 'output']).optional(),
}) satisfies z.ZodType<V2CellDiffs, unknown>;

/** A scored value (cached value, formula text, or an array formula's text) in the JSON form of a diff. */
function valueOf(v: ScoredValue) {
  if (v !== null && typeof v === 'object' && (v.kind === 'arrayFormula' || v.kind === 'dataTableFormula'))
    return { value: v.kind === 'arrayFormula' ? v.text : 'DataTableFormula', type: 'text' as const };
  return diffValue(v);
}

const mismatchOf = (d: CellDifference): CellMismatch => ({
  cell: d.cell,
  expected: valueOf(d.expected),
  got: valueOf(d.got),
  check: d.check,
  kind: d.kind,
});

/** The official ratio: correct / total rounded to 4 places, 0 when no cell is of that kind. */
export const tallyOf = (c: CellCounts): CellTally => ({
  ...c,
  accuracy: c.total ? pyRound(c.correct / c.total, 4) : 0,
});

export function cellDiffsOf(taskId: string, answerPosition: string, c: WorkbookComparison): V2CellDiffs {
  return {
    taskId,
    answerPosition,
    errorMessage: c.isCorrect ? '' : c.errorMessage,
    regression: tallyOf(c.regression),
    modification: tallyOf(c.modification),
    mismatches: c.differences.map(mismatchOf),
    omitted: c.omittedDifferences,
    ...(c.unreadable ? { unreadable: c.unreadable } : {}),
  };
}
