import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { LlmError } from './errors';
import { estimateMessageTokens, estimateTokens } from './tokenEstimate';
import type {
  ChatMessage,
  ChatRequest,
  ChatResponse,
  CompleteOptions,
  FinishReason,
  LlmProvider,
  TokenUsage,
  ToolCall,
} from './types';

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
          ...(request.tools?.length ? { tools: request.tools, tool_choice: request.toolChoice ?? 'auto' } : {}),
        },
        { signal: opts.signal, headers: opts.callKey ? { [CALL_KEY_HEADER]: opts.callKey } : undefined },
      )
      .withResponse();
    return toChatResponse(data, request, request_id ?? undefined);
  }
}

/** Tool results, assistant tool calls, user messages with images (text + image parts); others stay plain strings. */
function toOpenAiMessage(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '' };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  if (m.role === 'user' && m.images?.length) {
    return {
      role: 'user',
      content: [
        { type: 'text', text: m.content },
        ...m.images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
      ],
    };
  }
  return { role: m.role, content: m.content };
}

function toChatResponse(data: ChatCompletion, request: ChatRequest, requestId: string | undefined): ChatResponse {
  const choice = data?.choices?.[0];
  const toolCalls = toolCallsOf(choice?.message?.tool_calls);
  const content = choice?.message?.content;
  if (typeof content !== 'string' && !toolCalls.length) throw new LlmError('malformed_reply', malformedReason(data));
  const text = content ?? '';
  return {
    text,
    ...(toolCalls.length ? { toolCalls } : {}),
    finishReason: finishReasonOf(choice.finish_reason),
    usage: usageOf(data, request, text + toolCalls.map((c) => c.arguments).join('')),
    model: data.model || request.model,
    cached: false,
    requestId,
  };
}

type ReplyToolCalls = NonNullable<ChatCompletion['choices'][number]['message']['tool_calls']>;

function toolCallsOf(calls: ReplyToolCalls | undefined): ToolCall[] {
  return (calls ?? [])
    .filter((c) => c.type === 'function')
    .map((c, i) => ({ id: c.id || `call_${i}`, name: c.function.name, arguments: c.function.arguments ?? '' }));
}

function malformedReason(data: ChatCompletion | undefined): string {
  if (!data?.choices?.[0]) return 'LLM reply has no choices';
  return 'LLM reply has no text content and no tool calls';
}

function finishReasonOf(reason: string | null | undefined): FinishReason {
  return reason === 'stop' || reason === 'length' || reason === 'content_filter' || reason === 'tool_calls'
    ? reason
    : 'other';
}

/** Servers that omit usage still cost tokens: estimate so budgets keep counting. */
function usageOf(data: ChatCompletion, request: ChatRequest, text: string): TokenUsage {
  if (data.usage) return { inputTokens: data.usage.prompt_tokens, outputTokens: data.usage.completion_tokens };
  return { inputTokens: estimateMessageTokens(request.messages), outputTokens: estimateTokens(text) };
}
