import type { TokenUsage } from '../types';

/**
 * USD per million tokens. Cached input tokens are part of the input tokens and reasoning tokens part of the output
 * tokens (as OpenAI-compatible usage reports them); each part is priced at its own rate when one is given, else at
 * the rate of the whole.
 */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt tokens the provider read from its prompt cache (`prompt_tokens_details.cached_tokens`). */
  cachedInputPerMTok?: number;
  /** Reasoning tokens (`completion_tokens_details.reasoning_tokens`); most providers bill them as output. */
  reasoningPerMTok?: number;
}

/** USD for one call's usage at a flat price. */
export function costAtPrice(usage: TokenUsage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const reasoning = Math.min(usage.reasoningTokens ?? 0, usage.outputTokens);
  const input =
    (usage.inputTokens - cached) * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok);
  const output =
    (usage.outputTokens - reasoning) * price.outputPerMTok +
    reasoning * (price.reasoningPerMTok ?? price.outputPerMTok);
  return (input + output) / 1_000_000;
}
