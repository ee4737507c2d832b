import { TokenUsage, type ModelPrice } from './usage';

export type { ModelPrice } from './usage';

/** USD for one call of `model` at the configured prices (`TokenUsage.priceWith` with that model's price). */
export function costOf(usage: TokenUsage, model: string, prices: Record<string, ModelPrice>): number {
  return TokenUsage.priceWith(usage, prices[model]);
}
