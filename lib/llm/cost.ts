import type { TokenUsage } from './types';

export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** USD for one call. Models without a price cost 0 (their tokens are still counted elsewhere). */
export function costOf(usage: TokenUsage, model: string, prices: Record<string, ModelPrice>): number {
  const price = prices[model];
  if (!price) return 0;
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}
