import { randomBytes } from 'node:crypto';
import { estimateMessageTokens, estimateTokens } from '../llm/tokenEstimate';
import type { ScriptedReply, ScriptedRequest } from './script';

/** An OpenAI `chat.completion` object with usage estimated the way real tokenizers roughly count (chars / 4). */
export function completionBody(request: ScriptedRequest, reply: ScriptedReply, content: string | null = reply.text) {
  const promptTokens = estimateMessageTokens(request.messages);
  const completionTokens = estimateTokens(reply.text);
  return {
    id: `chatcmpl-scripted-${randomBytes(6).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: reply.finishReason ?? 'stop', logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

export function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}
