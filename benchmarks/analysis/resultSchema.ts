import { z } from 'zod';
import { PATTERNS } from '../../contracts/conversation';
import { TASK_FAILURE_CLASSES } from '../../contracts/taskResult';
import type { AnalysisRequestResult } from './result';

/**
 * results/<taskId>.json of an analysis run as finalize and the report read it back (another process, maybe another
 * version). Loose: fields a newer writer adds are kept; `grounding` and `chosenPattern` are absent in older results.
 */
export const analysisRequestResultSchema = z.looseObject({
  taskId: z.string(),
  level: z.number(),
  pattern: z.enum(PATTERNS),
  chosenPattern: z.enum(PATTERNS).optional(),
  status: z.enum(['scored', 'skipped', 'failed']),
  turnStatus: z.string().optional(),
  pass: z.boolean(),
  reason: z.string(),
  steps: z.number(),
  toolCalls: z.number(),
  usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }),
  costUsd: z.number(),
  failure: z.looseObject({ class: z.enum(TASK_FAILURE_CLASSES), message: z.string() }).optional(),
  conversationDir: z.string().optional(),
  wallMs: z.number(),
  grounding: z.looseObject({ total: z.number(), grounded: z.number() }).optional(),
}) satisfies z.ZodType<AnalysisRequestResult>;
