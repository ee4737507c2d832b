import { z } from 'zod';
import type { ChatMessage } from '../../lib/llm/types';

/**
 * One transcript message as stored in a conversation folder (turns/<turn>/<agent>/NNNN.json), read back by later
 * activities (a retried step, the grounding, the turn's end) and later versions. Loose: fields a newer writer adds
 * are kept.
 */
export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  images: z.array(z.string()).optional(),
  toolCalls: z.array(z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  toolCallId: z.string().optional(),
}) satisfies z.ZodType<ChatMessage>;
