import { knownCostOf } from './pricing';
import type { ModelPrice } from './usage';
import type { TokenUsage } from './usage';

export type { ModelPrice } from './usage';

/**
 * USD for one call: `prices` (the config's `llm.prices`) first, then the price library (lib/llm/pricing). A model
 * neither knows costs 0 here (its tokens are still counted); runs with a dollar budget refuse such a model at start
 * and reports say its cost is unknown (lib/llm/pricing/priceLookup.ts).
 */
export function costOf(
  usage: TokenUsage,
  model: string,
  prices: Record<string, ModelPrice>,
  endpoint: { baseUrl?: string } = {},
): number {
  return knownCostOf(usage, model, { prices, baseUrl: endpoint.baseUrl }) ?? 0;
}
