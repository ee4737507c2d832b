import type { ChatMessage } from '../llm/types';

/** An image a request carried in a content part (`image_url`): its media type, size and digest, as a rule sees it. */
export interface RequestImage {
  /** Index of the message that carried it. */
  message: number;
  mediaType: string;
  bytes: number;
  sha256: string;
}

/** What a rule sees of one request. */
export interface ScriptedRequest {
  model: string;
  messages: ChatMessage[];
  /** Content of the last user message ('' when there is none). */
  lastUser: string;
  callKey?: string;
  maxTokens?: number;
  /** Which field carried `maxTokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  temperature?: number;
  topP?: number;
  reasoningEffort?: string;
  /** Names of the tools the request offered (native tool calling); [] when none. */
  tools: string[];
  toolChoice?: unknown;
  /** Images the messages carried as `image_url` content parts (vision requests); [] when none. */
  images: RequestImage[];
  /**
   * Aborts once the server has seen the client hang up (set by the server for chat requests): a reply function that
   * holds a call for a kill can wait for it, so the call is logged unanswered whatever order the kill's events arrive in.
   */
  clientGone?: AbortSignal;
}

/** A tool call in a scripted reply; `arguments` given as an object is JSON-encoded, a string is sent as is (may be invalid JSON). */
export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
  id?: string;
}

export interface ScriptedReply {
  text: string;
  /** Native tool calls: the reply's finish reason becomes 'tool_calls'. */
  toolCalls?: ScriptedToolCall[];
  /** 'length' simulates a reply cut off by max_tokens. */
  finishReason?: 'stop' | 'length';
  /** Reasoning text sent beside the reply (in the script's `reasoningField`). */
  reasoning?: string;
  /** Hidden reasoning tokens, counted in `completion_tokens` and reported in `completion_tokens_details`. */
  reasoningTokens?: number;
  /** Prompt tokens reported as read from the provider's cache (`prompt_tokens_details.cached_tokens`). */
  cachedTokens?: number;
}

export type ReplyFn = (request: ScriptedRequest) => string | ScriptedReply | Promise<string | ScriptedReply>;

/** Failures the server can produce instead of (or, for `slow`, before) a normal reply. */
export type Fault =
  | { kind: 'rate_limit'; retryAfterSeconds?: number; retryAfterMs?: number }
  | { kind: 'server_error'; status?: number }
  /** Any other error status, e.g. 400 (optionally with a context-length message) or 401. */
  | { kind: 'status'; status: number; message?: string; code?: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'truncated' }
  | { kind: 'malformed'; variant: 'invalid_json' | 'empty_choices' | 'null_content' }
  | { kind: 'reset' };

export interface RuleMatch {
  /** Tested against the last user message. */
  lastUser?: RegExp;
  /** Tested against every message; any hit matches. */
  anyMessage?: RegExp;
  /** Tested against the `X-Sheetbench-Call` header. */
  callKey?: RegExp;
  model?: string;
  /** At least this many images in the request (vision requests). */
  minImages?: number;
}

export interface ScriptRule {
  name?: string;
  match?: RuleMatch;
  reply?: string | ReplyFn;
  fault?: Fault;
  /** Extra delay before answering (on top of the script's latency). */
  delayMs?: number;
  /** How many requests this rule answers before it stops matching (unlimited when absent). */
  times?: number;
}

export interface Script {
  rules: ScriptRule[];
  /** Reply when no rule matches; without one such requests get a 400 naming the problem. */
  fallback?: string | ReplyFn;
  /** Delay added to every request (the 912-task bench uses 2000). */
  latencyMs?: number;
  /**
   * Models answered as OpenAI answers its reasoning models (see strictReasoning.ts): `max_tokens` and a temperature
   * or top_p other than 1 are refused with OpenAI's 400s, and every reply spends `reasoningTokens` (default 64).
   */
  strictReasoning?: { models: RegExp; reasoningTokens?: number };
  /** Where a reply's reasoning text goes: `reasoning_content` (DeepSeek, the default) or `reasoning` (OpenRouter). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** How the files + batches endpoints behave (batchApi.ts); every batch completes at once without it. */
  batch?: BatchScript;
}

/**
 * The batch endpoints' scripted behaviours. Lines are answered by the rules like chat requests (a rule's `fault`
 * becomes that line's error in the error file); these add what only batches do.
 */
export interface BatchScript {
  /** Time from a batch's creation until it is done (`in_progress` until then). */
  delayMs?: number;
  /**
   * How long the reply to `POST /v1/batches` is held after the batch exists (and is logged): a client killed meanwhile
   * created a batch it never heard of (the crash that a metadata tag lets the next attempt find).
   */
  createReplyDelayMs?: number;
  /** A batch with a line for a matching model is rejected at validation (status `failed`, `errors` naming the line). */
  rejectModels?: RegExp;
  /** Lines whose custom_id matches are in neither the output nor the error file (a partial output). */
  dropLines?: RegExp;
  /** Lines whose custom_id matches expire: the batch ends `expired`, those lines in the error file as `batch_expired`. */
  expireLines?: RegExp;
}

export function ruleMatches(rule: ScriptRule, request: ScriptedRequest): boolean {
  const match = rule.match;
  if (!match) return true;
  if (match.model !== undefined && match.model !== request.model) return false;
  if (match.lastUser && !match.lastUser.test(request.lastUser)) return false;
  if (match.anyMessage && !request.messages.some((m) => match.anyMessage!.test(m.content))) return false;
  if (match.callKey && !match.callKey.test(request.callKey ?? '')) return false;
  if (match.minImages !== undefined && request.images.length < match.minImages) return false;
  return true;
}

export async function replyOf(reply: string | ReplyFn, request: ScriptedRequest): Promise<ScriptedReply> {
  const value = typeof reply === 'string' ? reply : await reply(request);
  return typeof value === 'string' ? { text: value } : value;
}
