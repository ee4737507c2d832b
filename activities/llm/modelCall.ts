import path from 'node:path';
import { ApplicationFailure, Context, activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import { withHeartbeat } from '../heartbeat';
import { llmFailureType } from '../../lib/failureTypes';
import type { ChatRequest, ChatResponse, LlmProvider } from '../../lib/llm/types';
import {
  classifyLlmError,
  costOf,
  ResponseCache,
  cachedComplete,
  createProvider,
  type RateLimitSettings,
} from '../../lib/llm';
import type { LlmConfig } from '../../config/schema';
import type { RunContext } from '../../lib/runStore/runContext';
import type { WorkerDeps } from '../deps';
import { TemporalRateLimiter } from './sharedRateLimit';
import { batchedReply } from './batchedCall';
import { payerOfThisActivity } from './payer';

/**
 * The one path of every LLM call made by an activity: the run's provider settings, its response cache (a retried or
 * replayed call is answered from it, never paid twice), heartbeats, and the failure-class retry policy.
 */
export async function cachedModelCall(
  deps: WorkerDeps,
  ctx: RunContext,
  request: ChatRequest,
  callKey: string,
): Promise<ChatResponse> {
  const provider = providerFor(deps, { ...deps.config.llm, ...ctx.manifest.llm, apiKey: deps.config.llm.apiKey });
  const cache = new ResponseCache(ctx.layout.llmCacheDir);
  const payer = payerOfThisActivity();
  // run --batch: the batch's reply, or BatchPending while it is on its way; undefined means: ask singly, as below.
  const batched = await batchedReply(deps, ctx, cache, request, callKey, payer);
  if (batched) return batched;
  return underRetryPolicy(deps.config.llm, () =>
    cachedComplete(provider, cache, request, { callKey, signal: cancellationSignal(), payer }),
  );
}

/**
 * How often a model call heartbeats while it waits for the reply. The tightest heartbeat timeout of an activity that
 * calls a model is SheetCopilot's 10 s (workflows/spreadsheetbench/activities.ts): a killed worker is noticed within
 * it, and a slow reply is never taken for one.
 */
export const MODEL_CALL_HEARTBEAT_MS = 2_000;

/**
 * Runs one model request of an activity (a benchmark's or a conversation's) under the failure-class retry policy:
 * heartbeats every MODEL_CALL_HEARTBEAT_MS that carry the failure counts so far, and an ApplicationFailure of the
 * failure's class when it fails. A cancelled activity aborts its request: that is reported as the cancellation, not as
 * a model failure.
 */
export async function underRetryPolicy<T>(config: LlmConfig, request: () => Promise<T>): Promise<T> {
  const failures = failureCountsSoFar();
  return withHeartbeat(request, { details: { failures }, everyMs: MODEL_CALL_HEARTBEAT_MS }).catch((err: unknown) => {
    // The worker's CancelledFailure (the signal's reason) is what makes Temporal record the attempt as cancelled.
    const cancelled = cancellationSignal();
    if (cancelled.aborted) throw cancelled.reason instanceof Error ? cancelled.reason : err;
    throw toApplicationFailure(err, config, failures);
  });
}

/**
 * What a reply cost: nothing when it is `cached` (another call's result carried its cost); a reply this call paid for,
 * answered live or found again after its earlier attempt was lost, at its price, and a batch's at the batch rate (its
 * `priceFactor`). The result then carries this cost with the reply's tokens: they are recorded together, once.
 */
export function costOfResponse(response: ChatResponse, model: string, deps: WorkerDeps): number {
  if (response.cached) return 0;
  return costOf(response.usage, model, deps.config.llm.prices, deps.config.llm) * (response.priceFactor ?? 1);
}

/** Failures per class in earlier attempts of this call (carried in heartbeat details from attempt to attempt). */
type FailureCounts = Partial<Record<string, number>>;

export function failureCountsSoFar(): FailureCounts {
  const details = activityInfo().heartbeatDetails as { failures?: FailureCounts } | undefined;
  return { ...(details?.failures ?? {}) };
}

/**
 * One retry policy (the provider client's own retries are off): 429s wait for their Retry-After (capped), bad
 * request/auth/context length stop at once, and each class has its own attempt limit from the config, counted over
 * the failures of that class only (attempts lost to a dead worker or to other classes do not use it up).
 */
function toApplicationFailure(err: unknown, config: LlmConfig, failures: FailureCounts): ApplicationFailure {
  const failure = classifyLlmError(err, { maxRetryAfterMs: config.maxRetryAfterMs });
  const count = (failures[failure.class] ?? 0) + 1;
  failures[failure.class] = count;
  heartbeat({ failures });
  const limit = config.retryLimits[failure.class as keyof LlmConfig['retryLimits']];
  const exhausted = limit !== undefined && count >= limit;
  const message = `LLM call failed (${failure.class}${exhausted ? `, failure ${count} of ${limit}` : ''}): ${err instanceof Error ? err.message : String(err)}`;
  return ApplicationFailure.create({
    message,
    type: llmFailureType(failure.class),
    nonRetryable: !failure.retryable || exhausted,
    nextRetryDelay: failure.retryAfterMs,
  });
}

/** The limits every model call of this worker goes through: the per-host file limiter and the cross-host one. */
export function limiterOptions(deps: WorkerDeps): {
  rateLimit?: RateLimitSettings;
  sharedLimiter?: TemporalRateLimiter;
} {
  return { rateLimit: rateLimitOf(deps.config.llm), sharedLimiter: sharedLimiterOf(deps) };
}

const providers = new WeakMap<WorkerDeps, Map<string, LlmProvider>>();

/**
 * One provider (one HTTP client and its kept-alive connections, the rate limits) per worker and settings, not a new
 * one per call.
 */
export function providerFor(deps: WorkerDeps, config: Parameters<typeof createProvider>[0]): LlmProvider {
  if (!providers.has(deps)) providers.set(deps, new Map());
  const byConfig = providers.get(deps)!;
  const key = JSON.stringify(config);
  if (!byConfig.has(key)) byConfig.set(key, createProvider(config, limiterOptions(deps)));
  return byConfig.get(key)!;
}

const sharedLimiters = new WeakMap<WorkerDeps, TemporalRateLimiter | undefined>();

/** The cross-host limit (config `llm.sharedLimits`), through the Temporal client of this worker; one per worker. */
function sharedLimiterOf(deps: WorkerDeps): TemporalRateLimiter | undefined {
  if (!sharedLimiters.has(deps)) sharedLimiters.set(deps, newSharedLimiter(deps));
  return sharedLimiters.get(deps);
}

function newSharedLimiter(deps: WorkerDeps): TemporalRateLimiter | undefined {
  const { sharedLimits, baseUrl, requestTimeoutMs } = deps.config.llm;
  if (!sharedLimits) return undefined;
  const { name, ...limits } = sharedLimits;
  return new TemporalRateLimiter({
    client: Context.current().client,
    taskQueue: deps.config.temporal.taskQueue,
    name: name ?? hostOf(baseUrl),
    limits,
    leaseMs: requestTimeoutMs + 30_000,
  });
}

function hostOf(baseUrl: string | undefined): string {
  try {
    return baseUrl ? new URL(baseUrl).host : 'local';
  } catch {
    return baseUrl ?? 'local';
  }
}

function rateLimitOf(config: LlmConfig): RateLimitSettings | undefined {
  if (!config.maxConcurrentRequests && !config.tokensPerMinute) return undefined;
  return {
    dir: path.resolve(config.rateLimitDir),
    maxConcurrent: config.maxConcurrentRequests,
    tokensPerMinute: config.tokensPerMinute,
  };
}
