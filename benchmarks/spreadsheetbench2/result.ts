/** results/<id>.json of a v2 task: the official score line, how the scaffold's episode ended, spend and time. */
import { z } from 'zod';
import { EXIT_STATUSES } from './scaffold/episodeFiles';

export const v2TaskResultSchema = z.object({
  taskId: z.string(),
  category: z.string(),
  /** evaluation.py's score line for the task (`scores[]` of the official result file). */
  score: z.object({
    id: z.union([z.string(), z.number()]),
    error_message: z.string(),
    regression_accuracy: z.number(),
    modification_accuracy: z.number(),
    accuracy: z.number(),
    interaction_turns: z.number(),
  }),
  /** accuracy, as the run's done summary counts it (soft = hard: one answer per task). */
  soft: z.number(),
  hard: z.number(),
  missingOutput: z.boolean(),
  exitStatus: z.enum(EXIT_STATUSES).optional(),
  modelCalls: z.number().int(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).loose(),
  costUsd: z.number(),
  wallMs: z.number(),
  failure: z.object({ class: z.string(), message: z.string() }).optional(),
});
export type V2TaskResult = z.infer<typeof v2TaskResultSchema>;
