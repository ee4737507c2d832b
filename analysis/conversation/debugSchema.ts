import { z } from 'zod';
import type { Grounding } from '../grounding/types';
import type { DebugStep, DebugToolCall } from './debug';

/**
 * The debug records of a conversation folder (debug/<step>.json, debug/<step>.tools/<call>.json) as the debug view
 * reads them back, possibly written by another version. Loose objects: fields a newer writer adds are kept.
 */
const sandboxVersionsSchema = z.looseObject({
  python: z.string().optional(),
  packages: z.record(z.string(), z.string()).optional(),
});

export const debugToolCallSchema = z.looseObject({
  callId: z.string(),
  tool: z.string(),
  args: z.unknown(),
  result: z.unknown(),
  ok: z.boolean(),
  durationMs: z.number(),
  sandbox: sandboxVersionsSchema.optional(),
}) satisfies z.ZodType<DebugToolCall>;

export const debugStepSchema = z.looseObject({
  stepId: z.string(),
  turnId: z.string(),
  index: z.number(),
  kind: z.string(),
  agent: z.string().optional(),
  model: z.string().optional(),
  prompt: z
    .array(
      z.looseObject({
        role: z.string(),
        content: z.string(),
        toolCalls: z.unknown().optional(),
        toolCallId: z.string().optional(),
      }),
    )
    .optional(),
  reply: z
    .looseObject({ content: z.string(), toolCalls: z.unknown().optional(), ignoredToolCalls: z.unknown().optional() })
    .optional(),
  toolCalls: z.array(debugToolCallSchema).optional(),
  code: z.string().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number(),
  cached: z.boolean().optional(),
  timing: z.looseObject({ modelMs: z.number(), executionMs: z.number(), toolsMs: z.number(), waitingMs: z.number() }),
  sandbox: sandboxVersionsSchema.optional(),
  /** Checked to be an object; its numbers and sources are the grounding's own (analysis/grounding). */
  grounding: z.custom<Grounding>((v) => typeof v === 'object' && v !== null).optional(),
}) satisfies z.ZodType<DebugStep>;
