import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ReasoningEffort } from 'openai/resources/shared';
import { LlmError } from './errors';
import { capabilitiesOf, type CapabilityOverrides } from './modelCapabilities';
import {
  describeAdjustment,
  parameterRefusalOf,
  withoutRefused,
  type ParameterRefusal,
  type SamplingFields,
} from './parameterRefusal';
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
  /** `reasoning_effort` for reasoning models (sent only when set). */
  reasoningEffort?: NonNullable<ReasoningEffort>;
  /** Per model name: overrides of the capability table (lib/llm/modelCapabilities.ts). */
  modelCapabilities?: CapabilityOverrides;
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

  /** Fields this provider learned a model refuses (from a first refusal), so later calls do not pay the 400 again. */
  private readonly refusedByModel = new Map<string, ParameterRefusal[]>();

  /**
   * One call. A 400 refusing one sampling field (`max_tokens` on a reasoning model, a temperature other than the
   * default) is retried once per field with that field changed; the reply records the change (`adjustments`).
   */
  async complete(request: ChatRequest, opts: CompleteOptions = {}): Promise<ChatResponse> {
    const adjustments: string[] = [];
    let fields = this.samplingFields(request);
    const tried = new Set<string>();
    for (;;) {
      try {
        const response = await this.send(request, fields, opts);
        return adjustments.length ? { ...response, adjustments } : response;
      } catch (err) {
        const refusal = parameterRefusalOf(err);
        const changed = refusal && !tried.has(refusal.param) ? withoutRefused(fields, refusal) : undefined;
        if (!refusal || !changed) throw err;
        tried.add(refusal.param);
        this.remember(request.model, refusal);
        adjustments.push(describeAdjustment(refusal));
        fields = changed;
      }
    }
  }

  private async send(request: ChatRequest, fields: SamplingFields, opts: CompleteOptions): Promise<ChatResponse> {
    const { data, request_id } = await this.client.chat.completions
      .create(chatCompletionParams(request, fields), {
        signal: opts.signal,
        headers: opts.callKey ? { [CALL_KEY_HEADER]: opts.callKey } : undefined,
      })
      .withResponse();
    return toChatResponse(data, request, request_id ?? undefined);
  }

  /** The token cap under the field the model takes; temperature/top_p only where the model accepts them. */
  private samplingFields(request: ChatRequest): SamplingFields {
    let fields = samplingFieldsOf(request, this.config);
    for (const refusal of this.refusedByModel.get(request.model) ?? [])
      fields = withoutRefused(fields, refusal) ?? fields;
    return fields;
  }

  private remember(model: string, refusal: ParameterRefusal): void {
    const known = this.refusedByModel.get(model) ?? [];
    if (!known.some((r) => r.param === refusal.param)) this.refusedByModel.set(model, [...known, refusal]);
  }
}

/** The token cap under the field the model takes; temperature/top_p only where the model accepts them. */
export function samplingFieldsOf(
  request: ChatRequest,
  config: Pick<OpenAiProviderConfig, 'maxTokens' | 'temperature' | 'reasoningEffort' | 'modelCapabilities'>,
): SamplingFields {
  const caps = capabilitiesOf(request.model, config.modelCapabilities);
  const maxTokens = request.maxTokens ?? config.maxTokens;
  const temperature = request.temperature ?? config.temperature;
  return {
    ...(maxTokens !== undefined ? { [caps.maxTokensField]: maxTokens } : {}),
    ...(caps.sampling && temperature !== undefined ? { temperature } : {}),
    ...(caps.sampling && request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(config.reasoningEffort ? { reasoning_effort: config.reasoningEffort } : {}),
  };
}

/** The body of one chat completion request (also a batch line's `body`). */
export function chatCompletionParams(request: ChatRequest, fields: SamplingFields) {
  return {
    model: request.model,
    messages: request.messages.map(toOpenAiMessage),
    ...fields,
    ...(request.tools?.length ? { tools: request.tools, tool_choice: request.toolChoice ?? ('auto' as const) } : {}),
  };
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

/** A chat completion as the project's reply (a batch output line's `response.body` too). */
export function toChatResponse(
  data: ChatCompletion,
  request: ChatRequest,
  requestId: string | undefined,
): ChatResponse {
  const choice = data?.choices?.[0];
  const toolCalls = toolCallsOf(choice?.message?.tool_calls);
  const content = choice?.message?.content;
  if (typeof content !== 'string' && !toolCalls.length) throw new LlmError('malformed_reply', malformedReason(data));
  const text = content ?? '';
  const reasoning = reasoningOf(choice.message);
  return {
    text,
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(reasoning ? { reasoning } : {}),
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

/** The reasoning text OpenRouter (`reasoning`) and DeepSeek (`reasoning_content`) return beside the reply. */
function reasoningOf(message: ChatCompletion['choices'][number]['message']): string | undefined {
  const extra = message as { reasoning_content?: unknown; reasoning?: unknown };
  const text = typeof extra.reasoning_content === 'string' ? extra.reasoning_content : extra.reasoning;
  return typeof text === 'string' && text ? text : undefined;
}

/**
 * Prompt tokens read from the provider's cache and hidden reasoning tokens are parts of the prompt and completion
 * counts, priced at their own rates (lib/llm/pricing). Servers that omit usage still cost tokens: estimate so budgets
 * keep counting.
 */
function usageOf(data: ChatCompletion, request: ChatRequest, text: string): TokenUsage {
  if (!data.usage) return { inputTokens: estimateMessageTokens(request.messages), outputTokens: estimateTokens(text) };
  const cached = data.usage.prompt_tokens_details?.cached_tokens;
  const reasoning = data.usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: data.usage.prompt_tokens,
    outputTokens: data.usage.completion_tokens,
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
