import { calcPrice, type PriceCalculation } from '@pydantic/genai-prices';
import type { TokenUsage } from '../types';
import type { ModelPrice } from './modelPrice';

/** The version of the bundled price data (package.json pins it exactly; prices change only when it is upgraded). */
export const PRICE_LIBRARY = '@pydantic/genai-prices';

/** What the price library knows about a model: its flat per-token prices, and which entry of which provider matched. */
export interface LibraryPrice {
  price: ModelPrice;
  provider: string;
  libraryModel: string;
}

/** The library's bundled data only (offline): no auto-update is ever enabled. */
export function libraryPriceOf(model: string, baseUrl?: string): LibraryPrice | undefined {
  const found = calculate({ input_tokens: 0, output_tokens: 0 }, model, baseUrl);
  if (!found) return undefined;
  const p = found.model_price;
  return {
    price: {
      inputPerMTok: flat(p.input_mtok),
      outputPerMTok: flat(p.output_mtok),
      ...(p.cache_read_mtok !== undefined ? { cachedInputPerMTok: flat(p.cache_read_mtok) } : {}),
      ...(p.output_reasoning_mtok !== undefined ? { reasoningPerMTok: flat(p.output_reasoning_mtok) } : {}),
    },
    provider: found.provider.id,
    libraryModel: found.model.id,
  };
}

/** USD for one call at the library's price (tiered prices, e.g. long-context rates, applied as the library does). */
export function libraryCostOf(usage: TokenUsage, model: string, baseUrl?: string): number | undefined {
  const found = calculate(
    {
      input_tokens: usage.inputTokens,
      cache_read_tokens: Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens),
      output_tokens: usage.outputTokens,
      output_reasoning_tokens: Math.min(usage.reasoningTokens ?? 0, usage.outputTokens),
    },
    model,
    baseUrl,
  );
  return found?.total_price;
}

/**
 * The endpoint names the provider when the library knows it (OpenRouter's `vendor/model` names, DeepSeek, Azure…);
 * an endpoint it does not know (a local server, the scripted one) falls back to matching the model name alone.
 */
function calculate(usage: Record<string, number>, model: string, baseUrl?: string): PriceCalculation | null {
  const byEndpoint = baseUrl ? calcOrNull(usage, model, baseUrl) : null;
  return byEndpoint ?? calcOrNull(usage, model);
}

/**
 * The library throws on an entry whose prices lack a parent unit (its README, "Prices must also cover their
 * ancestors"): such an entry is a price it does not know, not a failed call.
 */
function calcOrNull(usage: Record<string, number>, model: string, baseUrl?: string): PriceCalculation | null {
  try {
    return calcPrice(usage, model, baseUrl ? { providerApiUrl: baseUrl } : {});
  } catch {
    return null;
  }
}

/** Tiered prices (a long-context rate above a threshold) are shown at their base tier. */
function flat(value: ModelPrice[keyof ModelPrice] | { base: number } | undefined): number {
  if (value === undefined) return 0;
  return typeof value === 'number' ? value : value.base;
}
