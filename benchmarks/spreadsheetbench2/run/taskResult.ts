/**
 * A SpreadsheetBench 2 task's result in a run (`results/<key>.json`): the shared TaskResult (soft = hard = the official
 * accuracy, the category as its type, one "test case") and the official figures of the task (`v2`), from which the
 * run's official result files are written again at any time.
 */
import { z } from 'zod';
import type { TaskResult } from '../../../contracts/taskResult';
import { taskResultSchema } from '../../../contracts/taskResultSchema';
import type { V2CopyOutcome, V2DatasetCopies } from './datasetCopies';

const copyOutcomeSchema = z.object({
  recalculated: z.boolean(),
  made: z.boolean(),
  problem: z.string().optional(),
}) satisfies z.ZodType<V2CopyOutcome, unknown>;

export interface V2Figures {
  category: string;
  /** evaluation.py's `error_message` ('' when the task passed). */
  errorMessage: string;
  accuracy: number;
  regressionAccuracy: number;
  modificationAccuracy: number;
  /** The output did not exist (evaluation.py's `missing_outputs`; left out of the two cell accuracies). */
  missingOutput: boolean;
  /** Model calls of the agent's trajectory (evaluation.py's `interaction_turns`), when the agent records them. */
  interactionTurns?: number;
  /** Whether the input and answer scored were recalculated copies (made now or found in the cache), or why not. */
  datasetCopies?: V2DatasetCopies;
}

export type V2TaskResult = TaskResult & { v2: V2Figures };

export const v2FiguresSchema = z.looseObject({
  category: z.string(),
  errorMessage: z.string(),
  accuracy: z.number(),
  regressionAccuracy: z.number(),
  modificationAccuracy: z.number(),
  missingOutput: z.boolean(),
  interactionTurns: z.number().optional(),
  datasetCopies: z.object({ input: copyOutcomeSchema, answer: copyOutcomeSchema }).optional(),
}) satisfies z.ZodType<V2Figures, unknown>;

/** A result as written (older or foreign results without `v2` are read as failures of the task: see finalize). */
export const v2TaskResultSchema = taskResultSchema.extend({ v2: v2FiguresSchema.optional() });
