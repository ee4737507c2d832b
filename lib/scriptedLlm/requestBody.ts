import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { ChatMessage, ChatRole } from '../llm/types';
import type { RequestImage, ScriptedRequest } from './script';

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

const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string(), detail: z.enum(['auto', 'low', 'high']).optional() }).loose(),
});

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * The images of the request's content parts, as OpenAI's chat API takes them (`{type: 'image_url', image_url: {url}}`,
 * a base64 data URL of a PNG, JPEG, GIF or WebP); a malformed image part is an error naming the message and part, as
 * the real API refuses it. Remote URLs are refused: the scripted server fetches nothing.
 */
export function imagesOf(body: ChatCompletionRequest): { images: RequestImage[] } | { error: string } {
  const images: RequestImage[] = [];
  for (const [i, m] of body.messages.entries()) {
    if (!Array.isArray(m.content)) continue;
    for (const [j, part] of m.content.entries()) {
      if (part.type !== 'image_url') continue;
      const parsed = imagePartSchema.safeParse(part);
      const where = `messages.${i}.content.${j}`;
      if (!parsed.success) return { error: `${where}: an image_url part needs image_url.url` };
      const data = DATA_URL.exec(parsed.data.image_url.url);
      if (!data)
        return { error: `${where}: image_url.url must be a base64 data URL of a PNG, JPEG, GIF or WebP image` };
      const decoded = Buffer.from(data[2], 'base64');
      if (!decoded.length) return { error: `${where}: the image is empty` };
      images.push({
        message: i,
        mediaType: data[1],
        bytes: decoded.length,
        sha256: createHash('sha256').update(decoded).digest('hex'),
      });
    }
  }
  return { images };
}

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

/** A chat request read from its raw body; `callKey` is the `X-Sheetbench-Call` header (or a batch line's custom_id). */
export function parseChatRequest(body: Buffer, callKey?: string): { request: ScriptedRequest } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { error: 'request body is not JSON' };
  }
  return chatRequestOf(json, callKey);
}

/** A chat request from its parsed JSON body (a batch line's `body`). */
export function chatRequestOf(json: unknown, callKey?: string): { request: ScriptedRequest } | { error: string } {
  const parsed = chatCompletionRequestSchema.safeParse(json);
  if (!parsed.success)
    return {
      error: `invalid chat completion request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    };
  if (parsed.data.stream) return { error: 'scripted-llm does not stream; send stream: false' };
  // DeepSeek refuses a request whose messages carry an earlier reply's reasoning: clients must strip it.
  if (parsed.data.messages.some((m) => m.reasoning_content !== undefined))
    return { error: 'messages[].reasoning_content must not be sent back (as DeepSeek refuses it)' };
  const images = imagesOf(parsed.data);
  if ('error' in images) return { error: `invalid chat completion request: ${images.error}` };
  const messages = messagesOf(parsed.data);
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const { model, temperature, top_p, max_tokens, max_completion_tokens, reasoning_effort, tools, tool_choice } =
    parsed.data;
  return {
    request: {
      model,
      messages,
      lastUser,
      callKey,
      temperature: temperature ?? undefined,
      maxTokens: max_tokens ?? max_completion_tokens ?? undefined,
      maxTokensField: maxTokensFieldOf(max_tokens, max_completion_tokens),
      topP: top_p ?? undefined,
      reasoningEffort: reasoning_effort ?? undefined,
      tools: (tools ?? []).map((t) => t.function.name),
      toolChoice: tool_choice,
      images: images.images,
    },
  };
}

function maxTokensFieldOf(
  maxTokens: number | null | undefined,
  maxCompletionTokens: number | null | undefined,
): ScriptedRequest['maxTokensField'] {
  if (maxTokens !== undefined && maxTokens !== null) return 'max_tokens';
  if (maxCompletionTokens !== undefined && maxCompletionTokens !== null) return 'max_completion_tokens';
  return undefined;
}
