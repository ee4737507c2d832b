import { z } from 'zod';
import type { TaskCellDiffs } from './cellDiff';

/**
 * `tasks/<key>/cell-diffs.json` read back by `show`, the report and the run summary (another process, maybe another
 * version). Every field has been written since cell diffs exist; loose objects keep fields a newer scorer adds.
 */
const diffValueSchema = z.looseObject({
  value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
  type: z.enum(['empty', 'number', 'text', 'bool', 'datetime', 'date', 'time', 'duration']),
  uncachedFormula: z.literal(true).optional(),
});

const cellMismatchSchema = z.looseObject({
  cell: z.string(),
  expected: diffValueSchema,
  got: diffValueSchema,
  check: z.enum(['value', 'fill', 'font']),
});

const testCaseCellsSchema = z.looseObject({
  index: z.number().int(),
  pass: z.boolean(),
  reason: z.string().optional(),
  checkedCells: z.number().int().nonnegative(),
  mismatches: z.array(cellMismatchSchema),
  omitted: z.number().int().nonnegative(),
  fill: z.looseObject({ cells: z.number(), filled: z.number() }).nullable(),
  unreachable: z.string().optional(),
  inputPasses: z.boolean().optional(),
});

export const taskCellDiffsSchema = z.looseObject({
  taskId: z.string(),
  id: z.union([z.number(), z.string()]),
  mode: z.string(),
  answerPosition: z.string(),
  testCases: z.array(testCaseCellsSchema),
}) satisfies z.ZodType<TaskCellDiffs>;
