import { randomBytes } from 'node:crypto';
import { estimateMessageTokens, estimateTokens } from '../llm/tokenEstimate';
import type { ScriptedReply, ScriptedRequest } from './script';

/**
 * An OpenAI `chat.completion` object with usage estimated the way real tokenizers roughly count (chars / 4). Reasoning
 * tokens are part of `completion_tokens` and cached tokens part of `prompt_tokens`, as OpenAI counts them; the details
 * objects are sent only when the reply has such tokens (as older OpenAI-compatible servers do).
 */
export function completionBody(
  request: ScriptedRequest,
  reply: ScriptedReply,
  content: string | null = reply.text,
  opts: { reasoningField?: 'reasoning_content' | 'reasoning' } = {},
) {
  const promptTokens = estimateMessageTokens(request.messages);
  const toolCalls = reply.toolCalls?.map((c, i) => ({
    id: c.id ?? `call_${randomBytes(4).toString('hex')}_${i}`,
    type: 'function' as const,
    function: {
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
    },
  }));
  const reasoningTokens = reply.reasoningTokens ?? 0;
  const completionTokens =
    estimateTokens(reply.text + (toolCalls ?? []).map((c) => c.function.arguments).join('')) + reasoningTokens;
  const cachedTokens = Math.min(reply.cachedTokens ?? 0, promptTokens);
  const finishReason = reply.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop');
  const message = {
    role: 'assistant',
    content: toolCalls?.length && !content ? null : content,
    refusal: null,
    ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
    ...(reply.reasoning ? { [opts.reasoningField ?? 'reasoning_content']: reply.reasoning } : {}),
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
      ...(cachedTokens ? { prompt_tokens_details: { cached_tokens: cachedTokens, audio_tokens: 0 } } : {}),
      ...(reasoningTokens
        ? {
            completion_tokens_details: {
              reasoning_tokens: reasoningTokens,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          }
        : {}),
    },
  };
}

export function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}
