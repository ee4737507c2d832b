/** One home for the LLM vocabulary shared by providers, the cache, activities and agents. */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** Images sent with a user message (data: URLs), for vision models. */
  images?: string[];
}

export interface SamplingSettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
}

export interface ChatRequest extends SamplingSettings {
  messages: ChatMessage[];
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'content_filter' | 'other';

export interface ChatResponse {
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
  model: string;
  /** True when the reply came from the run's response cache (no provider call was paid for). */
  cached: boolean;
  /** Provider request id, when given. */
  requestId?: string;
}

/** Failure classes drive the retry policy and the budget (see llm/failures.ts). */
export type LlmFailureClass =
  | 'rate_limit'
  | 'provider_5xx'
  | 'timeout'
  | 'context_too_long'
  | 'bad_request'
  | 'auth'
  | 'connection'
  | 'malformed_reply';

export interface CompleteOptions {
  signal?: AbortSignal;
  /**
   * Stable identity of this logical call (run/task/stage/round), sent as the `X-Sheetbench-Call` header so a
   * provider log can prove no call was answered twice. Also the response cache's default discriminator (see
   * llm/responseCache.ts): identical prompts under different call keys are cached separately.
   */
  callKey?: string;
}

export interface LlmProvider {
  readonly name: string;
  complete(request: ChatRequest, opts?: CompleteOptions): Promise<ChatResponse>;
}
