import { z } from 'zod';

/** A mean over no requests was NaN when written, which JSON stores as null: read back as NaN. */
const mean = z.union([z.number(), z.null().transform(() => Number.NaN)]);

/** One group's line (total, a level, a pattern). Summaries written before grounding have no number counts. */
const groupSchema = z.looseObject({
  passed: z.number(),
  scored: z.number(),
  successRate: mean,
  steps: mean,
  toolCalls: mean,
  tokens: mean,
  costUsd: mean,
  numbers: z.number().optional(),
  groundedNumbers: z.number().optional(),
  groundedShare: z.number().nullable().optional(),
});

const reasonSchema = z.looseObject({ taskId: z.string(), reason: z.string() });

/**
 * An analysis run's summary.json (finalize.ts's AnalysisSummary) as `run` and `rejudge` read it back, maybe from a run
 * made by another version: the fields of the first version required, grounding counts optional, loose objects.
 */
export const analysisSummarySchema = z.looseObject({
  benchmark: z.literal('analysis').optional(),
  pattern: z.string(),
  model: z.string(),
  requests: z.number(),
  finished: z.number(),
  passed: z.number(),
  scored: z.number(),
  successRate: mean,
  skipped: z.array(reasonSchema),
  failed: z.array(reasonSchema),
  total: groupSchema,
  byLevel: z.record(z.string(), groupSchema),
  byPattern: z.record(z.string(), groupSchema),
});

export type AnalysisSummaryRead = z.output<typeof analysisSummarySchema>;
