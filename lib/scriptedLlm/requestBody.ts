import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { ChatMessage, ChatRole } from '../llm/types';

const MAX_BODY_BYTES = 32 * 1024 * 1024;

const contentSchema = z.union([
  z.string(),
  z.null(),
  z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()),
]);

export const chatCompletionRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(z.object({ role: z.string(), content: contentSchema.optional() }).loose()).min(1),
    temperature: z.number().nullish(),
    max_tokens: z.number().int().nullish(),
    max_completion_tokens: z.number().int().nullish(),
    top_p: z.number().nullish(),
    reasoning_effort: z.string().nullish(),
    stream: z.boolean().nullish(),
    tools: z.array(z.object({ function: z.object({ name: z.string() }).loose() }).loose()).nullish(),
    tool_choice: z.unknown().optional(),
  })
  .loose();

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const toolCallsSchema = z.array(
  z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) }).loose(),
);

/** Text of each message (content-part arrays joined, developer → system), with assistant tool calls and tool-message call ids. */
export function messagesOf(body: ChatCompletionRequest): ChatMessage[] {
  return body.messages.map((m) => {
    const message: ChatMessage = { role: roleOf(m.role), content: textOf(m.content) };
    const calls = toolCallsSchema.safeParse(m.tool_calls);
    if (calls.success && calls.data.length)
      message.toolCalls = calls.data.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    if (typeof m.tool_call_id === 'string') message.toolCallId = m.tool_call_id;
    return message;
  });
}

function roleOf(role: string): ChatRole {
  if (role === 'assistant' || role === 'user' || role === 'tool') return role;
  return role === 'system' || role === 'developer' ? 'system' : 'user';
}

function textOf(content: z.infer<typeof contentSchema> | undefined): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => part.text ?? '').join('');
}
