import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { LlmError } from './errors';
import { retryAfterMsFrom } from './retryAfter';
import type { LlmFailureClass } from './types';

export interface LlmFailure {
  class: LlmFailureClass;
  retryable: boolean;
  /** The server's requested delay (capped), for Temporal's `nextRetryDelay`. Only for rate limits. */
  retryAfterMs?: number;
  status?: number;
}

export interface ClassifyOptions {
  /** Cap on a server-requested delay (a `Retry-After: 3600` must not park a worker for an hour). */
  maxRetryAfterMs?: number;
  now?: number;
}

/** Retrying these cannot succeed: the same request gets the same refusal. */
const NOT_RETRYABLE: ReadonlySet<LlmFailureClass> = new Set(['bad_request', 'auth', 'context_too_long']);

const CONTEXT_TOO_LONG =
  /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|reduce the length|exceeds? the (model'?s? )?(context|maximum)/i;

const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Maps any error from a provider call to a failure class and whether another attempt may succeed. */
export function classifyLlmError(err: unknown, opts: ClassifyOptions = {}): LlmFailure {
  const failure = classOf(err, opts);
  const retryable =
    err instanceof LlmError && err.retryable !== undefined ? err.retryable : !NOT_RETRYABLE.has(failure.class);
  return { retryable, ...failure, ...shouldRetryOverride(err) };
}

type Classified = Omit<LlmFailure, 'retryable'>;

function classOf(err: unknown, opts: ClassifyOptions): Classified {
  if (err instanceof LlmError) return { class: err.class, status: err.status };
  if (err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError) return { class: 'timeout' };
  if (err instanceof APIConnectionError) return { class: networkClassOf(err.cause) ?? 'connection' };
  if (err instanceof APIError && err.status !== undefined) return httpClassOf(err, err.status, opts);
  if (err instanceof SyntaxError) return { class: 'malformed_reply' };
  if (isAbortOrTimeout(err)) return { class: 'timeout' };
  // Anything else came from the provider's side of the call; treat it as transient and let maximumAttempts bound it.
  return { class: networkClassOf(err) ?? 'provider_5xx' };
}

function httpClassOf(err: APIError, status: number, opts: ClassifyOptions): Classified {
  if (status === 429) return { class: 'rate_limit', status, retryAfterMs: cappedRetryAfter(err, opts) };
  if (status === 401 || status === 403) return { class: 'auth', status };
  if (status === 408) return { class: 'timeout', status };
  if (status >= 500 || status === 409) return { class: 'provider_5xx', status };
  if (status === 413 || err.code === 'context_length_exceeded' || CONTEXT_TOO_LONG.test(err.message)) {
    return { class: 'context_too_long', status };
  }
  return { class: 'bad_request', status };
}

function cappedRetryAfter(err: APIError, opts: ClassifyOptions): number | undefined {
  const requested = retryAfterMsFrom(err.headers, opts.now);
  if (requested === undefined) return undefined;
  return opts.maxRetryAfterMs === undefined ? requested : Math.min(requested, opts.maxRetryAfterMs);
}

/** `x-should-retry` lets a server (OpenAI does this) overrule the status-based decision. */
function shouldRetryOverride(err: unknown): { retryable?: boolean } {
  if (!(err instanceof APIError) || !err.headers) return {};
  const header = err.headers.get('x-should-retry');
  return header === 'true' ? { retryable: true } : header === 'false' ? { retryable: false } : {};
}

function isAbortOrTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** Walks the cause chain for a Node/undici network error code. */
function networkClassOf(err: unknown): LlmFailureClass | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (CONNECTION_CODES.has(code) || code.startsWith('UND_ERR_SOCKET')) return 'connection';
  }
  return undefined;
}
