import { libraryCostOf, libraryPriceOf } from './libraryPrice';
import type { ModelPrice } from './modelPrice';
import { TokenUsage } from '../usage';

/** Where a model's price came from: the config's `llm.prices` (wins), the price library, or an embedded model (free). */
export type PriceSource = 'config' | 'library' | 'local';

export interface KnownPrice {
  model: string;
  source: PriceSource;
  price: ModelPrice;
  /** Library prices: the provider and model entry that matched. */
  provider?: string;
  libraryModel?: string;
}

/** What a price lookup needs besides the model name. */
export interface PriceSettings {
  /** `llm.prices`: per model name, overriding the library. */
  prices: Record<string, ModelPrice>;
  /** The endpoint, which tells the library the provider (OpenRouter, DeepSeek, Azure…). */
  baseUrl?: string;
  /** The embedded CPU model: it costs nothing. */
  local?: boolean;
}

/** The model's price, or undefined when neither the config nor the library knows it. */
export function priceOf(model: string, settings: PriceSettings): KnownPrice | undefined {
  const configured = settings.prices[model];
  if (configured) return { model, source: 'config', price: configured };
  if (settings.local) return { model, source: 'local', price: { inputPerMTok: 0, outputPerMTok: 0 } };
  const library = libraryPriceOf(model, settings.baseUrl);
  return library ? { model, source: 'library', ...library } : undefined;
}

/**
 * USD for one call: at `llm.prices` when the model is there, else at the library's price; undefined when neither
 * knows the model (its tokens are still counted).
 */
export function knownCostOf(usage: TokenUsage, model: string, settings: PriceSettings): number | undefined {
  const configured = settings.prices[model];
  if (configured) return TokenUsage.priceWith(usage, configured);
  if (settings.local) return 0;
  return libraryCostOf(usage, model, settings.baseUrl);
}

/** The config key that prices a model, as a user writes it in sheetbench.config.json. */
export function priceConfigKey(model: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(model) ? `llm.prices.${model}` : `llm.prices["${model}"]`;
}
