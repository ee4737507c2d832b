import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { LlmError } from './errors';
import { estimateMessageTokens, estimateTokens } from './tokenEstimate';
import type { ChatMessage, ChatRequest, ChatResponse, CompleteOptions, FinishReason, LlmProvider, TokenUsage } from './types';

export interface OpenAiProviderConfig {
  baseUrl?: string;
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  requestTimeoutMs: number;
}

/** Local OpenAI-compatible servers need no key, but the client refuses to start without one. */
const PLACEHOLDER_API_KEY = 'sk-sheetbench-no-key';

export const CALL_KEY_HEADER = 'X-Sheetbench-Call';

/** Any OpenAI-compatible chat endpoint. The client never retries: Temporal owns the retry policy. */
export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;

  constructor(private readonly config: OpenAiProviderConfig) {
    this.client = new OpenAI({
      baseURL: config.baseUrl,
      apiKey: config.apiKey || PLACEHOLDER_API_KEY,
      maxRetries: 0,
      timeout: config.requestTimeoutMs,
    });
  }

  async complete(request: ChatRequest, opts: CompleteOptions = {}): Promise<ChatResponse> {
    const { data, request_id } = await this.client.chat.completions
      .create(
        {
          model: request.model,
          messages: request.messages.map(toOpenAiMessage),
          temperature: request.temperature ?? this.config.temperature,
          max_tokens: request.maxTokens ?? this.config.maxTokens,
          top_p: request.topP,
        },
        { signal: opts.signal, headers: opts.callKey ? { [CALL_KEY_HEADER]: opts.callKey } : undefined },
      )
      .withResponse();
    return toChatResponse(data, request, request_id ?? undefined);
  }
}

/** A message with images becomes text + image parts; others stay plain strings (as every provider accepts). */
function toOpenAiMessage(m: ChatMessage): ChatCompletionMessageParam {
  if (!m.images?.length || m.role !== 'user') return { role: m.role, content: m.content };
  return {
    role: 'user',
    content: [{ type: 'text', text: m.content }, ...m.images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))],
  };
}

function toChatResponse(data: ChatCompletion, request: ChatRequest, requestId: string | undefined): ChatResponse {
  const choice = data?.choices?.[0];
  const text = choice?.message?.content;
  if (typeof text !== 'string') throw new LlmError('malformed_reply', malformedReason(data));
  return {
    text,
    finishReason: finishReasonOf(choice.finish_reason),
    usage: usageOf(data, request, text),
    model: data.model || request.model,
    cached: false,
    requestId,
  };
}

function malformedReason(data: ChatCompletion | undefined): string {
  const choice = data?.choices?.[0];
  if (!choice) return 'LLM reply has no choices';
  if (choice.message?.tool_calls?.length) return 'LLM reply has tool calls but no text';
  return 'LLM reply has no text content';
}

function finishReasonOf(reason: string | null | undefined): FinishReason {
  return reason === 'stop' || reason === 'length' || reason === 'content_filter' ? reason : 'other';
}

/** Servers that omit usage still cost tokens: estimate so budgets keep counting. */
function usageOf(data: ChatCompletion, request: ChatRequest, text: string): TokenUsage {
  if (data.usage) return { inputTokens: data.usage.prompt_tokens, outputTokens: data.usage.completion_tokens };
  return { inputTokens: estimateMessageTokens(request.messages), outputTokens: estimateTokens(text) };
}
