import { z } from 'zod';
import type { Agreement } from '../grounding/crossCheck';
import type { OperationMismatch } from '../grounding/operation';

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
  missing: z.array(z.string()).optional(),
  why: z.string().optional(),
  use: z.enum(['first', 'second']).optional(),
  second: z.looseObject({ code: z.string(), printed: z.string() }).optional(),
  firstOperation: operationSchema.optional(),
  secondOperation: operationSchema.optional(),
  text: z.string(),
}) satisfies z.ZodType<CrossCheckRecord>;

/** What the second program ran and printed (its last successful python run). */
export interface SecondProgram {
  code: string;
  printed: string;
}

/** What a cross-check found: `turns/<turnId>/cross-check.json` (the last round), read when the turn ends. */
export interface CrossCheckRecord {
  round: number;
  /** The answer checked (a transcript message): the record applies to that answer only. */
  answer: { agent: string; index: number };
  verdict: Agreement['verdict'];
  /** The numbers of the answer the second program did not compute; or why nothing could be compared. */
  unmatched?: string[];
  /** When they agree: the groups the question asks a value for that the answer (and its saved tables) leave out. */
  missing?: string[];
  why?: string;
  use?: 'first' | 'second';
  second?: SecondProgram;
  firstOperation?: OperationMismatch;
  secondOperation?: OperationMismatch;
  text: string;
}
