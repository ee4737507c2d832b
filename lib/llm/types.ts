/** One home for the LLM vocabulary shared by providers, the cache, activities and agents. */
import type { TokenUsage } from './usage';

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** A function call the model asked for; `arguments` is the raw JSON text the model wrote (it may be invalid). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** Images sent with a user message (data: URLs), for vision models. */
  images?: string[];
  /** Assistant messages: the tool calls of that reply. */
  toolCalls?: ToolCall[];
  /** Tool messages: the call this message answers. */
  toolCallId?: string;
  /**
   * Assistant messages: the model's reasoning text, when the provider returned it. Kept in transcripts, never sent
   * back (DeepSeek refuses a request whose messages carry `reasoning_content`).
   */
  reasoning?: string;
}

/** One OpenAI `tools` entry: a function with a JSON-schema parameter object. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export type ToolChoice = 'auto' | 'none' | 'required';

export interface SamplingSettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
}

export interface ChatRequest extends SamplingSettings {
  messages: ChatMessage[];
  /** Native tool calling; absent for plain chat (and for the text action protocol, see lib/llm/textActions.ts). */
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
}

/** Token usage (and its `add`/`priceWith`) lives in ./usage.ts; re-exported here with the rest of the vocabulary. */
export { TokenUsage, Spend } from './usage';

export type FinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls' | 'other';

export interface ChatResponse {
  /** '' when the reply is only tool calls. */
  text: string;
  toolCalls?: ToolCall[];
  /** The reasoning text beside the reply (`reasoning` / `reasoning_content`), when the provider returned one. */
  reasoning?: string;
  finishReason: FinishReason;
  usage: TokenUsage;
  /** How the request was changed after the provider refused a field of it (lib/llm/parameterRefusal.ts). */
  adjustments?: string[];
  model: string;
  /**
   * True when the reply came from the run's response cache and another call's result carried its cost (nothing is
   * paid for it here). False for a reply found again by the call that paid for it (a retry after its first attempt was
   * lost: lib/llm/responseCache.ts `payer`), whose cost this result must carry.
   */
  cached: boolean;
  /** Provider request id, when given. */
  requestId?: string;
  /** The batch that answered this call (`run --batch`), kept with the reply in the response cache. */
  batchId?: string;
  /** The fraction of the price this reply costs: a batch's reply is charged at the batch rate. Absent: 1. */
  priceFactor?: number;
}

/** Failure classes drive the retry policy and the budget (see lib/llm/failures.ts). */
export const LLM_FAILURE_CLASSES = [
  'rate_limit',
  'provider_5xx',
  'timeout',
  'context_too_long',
  'bad_request',
  'auth',
  'connection',
  'malformed_reply',
] as const;
export type LlmFailureClass = (typeof LLM_FAILURE_CLASSES)[number];

export interface CompleteOptions {
  signal?: AbortSignal;
  /**
   * Stable identity of this logical call (run/task/stage/round), sent as the `X-Sheetbench-Call` header so a
   * provider log can prove no call was answered twice. Also the response cache's default discriminator (see
   * lib/llm/responseCache.ts): identical prompts under different call keys are cached separately.
   */
  callKey?: string;
}

export interface LlmProvider {
  readonly name: string;
  complete(request: ChatRequest, opts?: CompleteOptions): Promise<ChatResponse>;
}
