import { z } from 'zod';
import type { ChatMessage } from './types';

/**
 * A chat message as stored in a run or conversation folder (a task's conversations/<name>.json, a conversation's
 * turns/<turn>/<agent>/NNNN.json), read back by later activities and later versions. Loose: fields a newer writer adds
 * are kept.
 */
export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  images: z.array(z.string()).optional(),
  toolCalls: z.array(z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  toolCallId: z.string().optional(),
}) satisfies z.ZodType<ChatMessage>;
