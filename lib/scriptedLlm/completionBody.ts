import { randomBytes } from 'node:crypto';
import { estimateMessageTokens, estimateTokens } from '../llm/tokenEstimate';
import type { ScriptedReply, ScriptedRequest } from './script';

/** An OpenAI `chat.completion` object with usage estimated the way real tokenizers roughly count (chars / 4). */
export function completionBody(request: ScriptedRequest, reply: ScriptedReply, content: string | null = reply.text) {
  const promptTokens = estimateMessageTokens(request.messages);
  const toolCalls = reply.toolCalls?.map((c, i) => ({
    id: c.id ?? `call_${randomBytes(4).toString('hex')}_${i}`,
    type: 'function' as const,
    function: {
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
    },
  }));
  const completionTokens = estimateTokens(reply.text + (toolCalls ?? []).map((c) => c.function.arguments).join(''));
  const finishReason = reply.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop');
  const message = {
    role: 'assistant',
    content: toolCalls?.length && !content ? null : content,
    refusal: null,
    ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
  };
  return {
    id: `chatcmpl-scripted-${randomBytes(6).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

export function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}
