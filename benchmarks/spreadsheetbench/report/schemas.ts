import { z } from 'zod';
import { TASK_FAILURE_CLASSES } from '../../../contracts/taskResult';
import { runManifestSchema, type RunManifest } from '../../../lib/runStore/manifest';
import { sheetTaskSchema } from '../dataset';

/**
 * zod schemas for the files of a run folder (lib/runStore/runLayout.ts). Records written by other parts of sheetbench
 * may grow fields; `passthrough`/loose objects keep the report working when they do.
 */

/** A usage as TokenUsage (lib/llm/usage.ts) records it: cached and reasoning counts only when the provider reported them. */
const tokenUsageSchema = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative().optional(),
  reasoningTokens: z.number().nonnegative().optional(),
});

/** The run manifest has one home: lib/runStore/manifest.ts. */
export { runManifestSchema };
export type { RunManifest };

export const taskListSchema = z.array(sheetTaskSchema);

const failureClassSchema = z.enum(TASK_FAILURE_CLASSES);

export const stageRecordSchema = z.looseObject({
  stage: z.string(),
  llmCalls: z.number().int().nonnegative(),
  usage: tokenUsageSchema,
  costUsd: z.number().nonnegative(),
  wallMs: z.number().nonnegative(),
  outcome: z.string(),
});

export const taskResultSchema = z.looseObject({
  taskId: z.string().min(1),
  id: z.union([z.number(), z.string()]),
  instructionType: z.string(),
  testCaseResults: z.array(z.number()),
  soft: z.number().min(0).max(1),
  hard: z.number().min(0).max(1),
  failure: z.object({ class: failureClassSchema, message: z.string() }).optional(),
  llmCalls: z.number().int().nonnegative(),
  usage: tokenUsageSchema,
  costUsd: z.number().nonnegative(),
  stages: z.array(stageRecordSchema),
  reasons: z.array(z.string().nullable()),
  wallMs: z.number().nonnegative(),
});

/** Transcripts are written by several agents; only what the report shows is checked. */
export const transcriptSchema = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).default([]),
  executions: z
    .array(
      z.looseObject({
        code: z.string().default(''),
        stdout: z.string().nullish(),
        stderr: z.string().nullish(),
        error: z.unknown().optional(),
      }),
    )
    .default([]),
  stages: z.array(z.unknown()).default([]),
});
export type Transcript = z.infer<typeof transcriptSchema>;
export type TranscriptMessage = Transcript['messages'][number];
export type TranscriptExecution = Transcript['executions'][number];
