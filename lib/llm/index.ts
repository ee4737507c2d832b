import type { LlmConfig } from '../../config/schema';
import { LocalProvider } from './localProvider';
import { OpenAiProvider } from './openaiProvider';
import { FileRateLimiter, type RateLimiter, type RateLimitSettings } from './rateLimiter';
import { RateLimitedProvider } from './rateLimitedProvider';
import type { LlmProvider } from './types';

export * from './types';
export { LlmError } from './errors';
export { classifyLlmError, type LlmFailure, type ClassifyOptions } from './failures';
export { retryAfterMsFrom } from './retryAfter';
export { costOf, type ModelPrice } from './cost';
export { USAGE_COUNTS } from './usage';
export { priceOf, knownCostOf, priceConfigKey, type KnownPrice, type PriceSource } from './pricing';
export { ResponseCache, cachedComplete, cacheKeyOf, type CachedCompleteOptions } from './responseCache';
export { FileRateLimiter, type RateLimiter, type RateLimitSettings, type RatePermit } from './rateLimiter';
export { RateLimitedProvider } from './rateLimitedProvider';
export { OpenAiProvider, CALL_KEY_HEADER, type OpenAiProviderConfig } from './openaiProvider';
export { capabilitiesOf, type ModelCapabilities, type CapabilityOverrides } from './modelCapabilities';
export { LocalProvider, type LocalProviderConfig } from './localProvider';
export { TextActionProvider, actionProtocolPrompt, parseActions, parseToolCalls } from './textActions';
export { estimateTokens, estimateMessageTokens } from './tokenEstimate';
export { canonicalJson } from './canonicalJson';
export { callKeyOf, legacyCallKeys } from './callKey';
export { assistantMessageOf } from './assistantMessage';

export type ProviderConfig = Pick<LlmConfig, 'requestTimeoutMs'> &
  Partial<
    Pick<
      LlmConfig,
      | 'provider'
      | 'baseUrl'
      | 'apiKey'
      | 'temperature'
      | 'maxTokens'
      | 'localModelPath'
      | 'reasoningEffort'
      | 'modelCapabilities'
    >
  >;

/**
 * The embedded model when asked for (`provider: 'local'`) or when nothing points elsewhere (no base URL, no key);
 * otherwise the OpenAI-compatible endpoint. With `rateLimit`, calls share that limit with other processes on this
 * host; with `sharedLimiter` (the Temporal-wide limit), with every worker on every host — first that, then this host's.
 */
export function createProvider(
  config: ProviderConfig,
  opts: { rateLimit?: RateLimitSettings; sharedLimiter?: RateLimiter } = {},
): LlmProvider {
  let provider: LlmProvider = usesLocalModel(config) ? new LocalProvider(config) : new OpenAiProvider(config);
  if (opts.rateLimit) provider = new RateLimitedProvider(provider, new FileRateLimiter(opts.rateLimit));
  if (opts.sharedLimiter) provider = new RateLimitedProvider(provider, opts.sharedLimiter);
  return provider;
}

export function usesLocalModel(config: Pick<ProviderConfig, 'provider' | 'baseUrl' | 'apiKey'>): boolean {
  return config.provider === 'local' || (!config.baseUrl && !config.apiKey);
}
