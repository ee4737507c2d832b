import { z } from 'zod';
import type { CrossCheckRecord } from './crossCheck';

const operationSchema = z.looseObject({
  asked: z.string(),
  used: z.string(),
  kind: z.enum(['aggregate', 'distinct']),
});

/** A turn's cross-check record (`turns/<turnId>/cross-check.json`) as read back when the turn ends. */
export const crossCheckRecordSchema = z.looseObject({
  round: z.number(),
  answer: z.looseObject({ agent: z.string(), index: z.number() }),
  verdict: z.enum(['agree', 'disagree', 'inconclusive']),
  unmatched: z.array(z.string()).optional(),
  why: z.string().optional(),
  use: z.enum(['first', 'second']).optional(),
  second: z.looseObject({ code: z.string(), printed: z.string() }).optional(),
  firstOperation: operationSchema.optional(),
  secondOperation: operationSchema.optional(),
  text: z.string(),
}) satisfies z.ZodType<CrossCheckRecord>;
