import type { Config } from '../../config/schema';
import { usesLocalModel } from '../../lib/llm';
import { assertPricedForBudget, runPricingOf } from '../../lib/llm/pricing';

/**
 * A conversation's dollar budget (`conversation.budgetUsd`) cannot be kept on a model whose price is unknown (its calls
 * would count $0): `serve` and `ask` refuse to start, naming the model and the `llm.prices` key, as a run does. The
 * model is priced as the conversation's model steps price it (`llm.prices`, else the price library; an embedded model
 * is free).
 */
export function assertConversationPriced(config: Config): void {
  const usd = config.conversation.budgetUsd;
  if (usd === undefined) return;
  const pricing = runPricingOf([config.llm.model], { prices: config.llm.prices, local: usesLocalModel(config.llm) });
  assertPricedForBudget(pricing, { key: 'conversation.budgetUsd', usd, subject: 'the conversation' });
}
