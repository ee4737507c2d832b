import { z } from 'zod';
import { TASK_FAILURE_CLASSES, type StageRecord, type TaskResult } from './taskResult';

/**
 * zod schemas for a task's result as written to `results/<task>.json` and read back by later processes (finalize,
 * the report, `retry --failed`, a resumed task) and later versions. Loose objects: a field added by a newer writer
 * is kept, not an error; fields older writers did not write (`epoch`, `failure`) are optional.
 */

/** A usage as TokenUsage (lib/llm/usage.ts) records it: cached and reasoning counts only when the provider reported them. */
const tokenUsageSchema = z.looseObject({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative().optional(),
  reasoningTokens: z.number().nonnegative().optional(),
});

export const stageRecordSchema = z.looseObject({
  stage: z.string(),
  llmCalls: z.number().int().nonnegative(),
  usage: tokenUsageSchema,
  costUsd: z.number().nonnegative(),
  wallMs: z.number().nonnegative(),
  outcome: z.string(),
}) satisfies z.ZodType<StageRecord>;

export const taskResultSchema = z.looseObject({
  taskId: z.string().min(1),
  id: z.union([z.number(), z.string()]),
  epoch: z.number().int().positive().optional(),
  instructionType: z.string(),
  testCaseResults: z.array(z.number()),
  soft: z.number().min(0).max(1),
  hard: z.number().min(0).max(1),
  failure: z.looseObject({ class: z.enum(TASK_FAILURE_CLASSES), message: z.string() }).optional(),
  llmCalls: z.number().int().nonnegative(),
  usage: tokenUsageSchema,
  costUsd: z.number().nonnegative(),
  stages: z.array(stageRecordSchema),
  reasons: z.array(z.string().nullable()),
  wallMs: z.number().nonnegative(),
}) satisfies z.ZodType<TaskResult>;
