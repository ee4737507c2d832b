import { z } from 'zod';
import type { RunSummary } from './runSummary';

/**
 * summary.json (the shared RunSummary fields) as `run`, the run pages and `report` read it back, maybe from a run made
 * by another version. The fields of the first version are required; later ones optional. A mean over no tasks was
 * NaN when written, which JSON stores as null: read back as NaN. Loose: a benchmark's own fields (DSBench's
 * `dsbench`) are kept, for its reader to check.
 */
const mean = z.union([z.number(), z.null().transform(() => Number.NaN)]);
const scoreLineSchema = z.looseObject({ tasks: z.number(), soft: mean, hard: mean });

export const runSummarySchema = z.looseObject({
  runId: z.string(),
  agent: z.string(),
  model: z.string(),
  tasks: z.number(),
  scored: z.number(),
  failed: z.number(),
  overall: scoreLineSchema,
  byType: z.record(z.string(), scoreLineSchema),
  llmCalls: z.number(),
  usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }),
  costUsd: z.number(),
  failureClasses: z.record(z.string(), z.number()),
  topFailures: z.array(z.looseObject({ class: z.string(), message: z.string(), tasks: z.number() })).optional(),
  epochs: z.number().optional(),
  attempts: z.number().optional(),
  floor: z
    .looseObject({ tasks: z.number(), testCases: z.number(), passedByInput: z.number(), soft: mean, hard: mean })
    .optional(),
  unreachable: z.array(z.looseObject({ taskId: z.string(), testCase: z.number(), reason: z.string() })).optional(),
  excluded: z.looseObject({ why: z.string(), tasks: z.array(z.string()), overall: scoreLineSchema }).optional(),
  figures: z.array(z.looseObject({ name: z.string(), overall: mean, byGroup: z.record(z.string(), mean) })).optional(),
}) satisfies z.ZodType<RunSummary, unknown>;
