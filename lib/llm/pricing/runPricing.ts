import { ConfigError } from '../../../config/load';
import { PRICE_LIBRARY } from './libraryPrice';
import { priceConfigKey, priceOf, type KnownPrice, type PriceSettings } from './priceLookup';

/** The prices a run's models have when it is created (written to the run folder as `prices.json`). */
export interface RunPricing {
  priced: KnownPrice[];
  /** Models neither `llm.prices` nor the price library knows: their cost is unknown (counted as 0, tokens counted). */
  unpriced: string[];
}

export function runPricingOf(models: string[], settings: PriceSettings): RunPricing {
  const unique = [...new Set(models)];
  const found = unique.map((model) => ({ model, price: priceOf(model, settings) }));
  return {
    priced: found.flatMap((f) => (f.price ? [f.price] : [])),
    unpriced: found.filter((f) => !f.price).map((f) => f.model),
  };
}

/** A dollar budget cannot be kept on a model whose price is unknown: such a run (or conversation) is refused before it starts. */
export class UnknownPriceError extends ConfigError {
  override name = 'UnknownPriceError';
}

export interface DollarBudget {
  /** The config key (and flag) that set it, as the message names it. */
  key: string;
  usd: number;
  /** What has the budget: 'the run' unless said. */
  subject?: string;
}

export function assertPricedForBudget(pricing: RunPricing, budget: DollarBudget | undefined): void {
  if (!budget || !pricing.unpriced.length) return;
  const model = pricing.unpriced[0];
  throw new UnknownPriceError(
    `refusing to start: ${budget.subject ?? 'the run'} has a dollar budget (${budget.key} = ${budget.usd}) but no price is known for model ` +
      `"${model}" (neither llm.prices nor the price library ${PRICE_LIBRARY} has it), so the budget could never stop ` +
      `it. Set ${priceConfigKey(model)} = { "inputPerMTok": …, "outputPerMTok": … } (USD per million tokens) in ` +
      `sheetbench.config.json${pricing.unpriced.length > 1 ? ` (also unpriced: ${pricing.unpriced.slice(1).join(', ')})` : ''}, or start ${budget.subject ?? 'the run'} without a dollar budget.`,
  );
}

/** One line for the run's output: where each model's price comes from, and which models' cost is unknown. */
export function describePricing(pricing: RunPricing): string {
  const known = pricing.priced.map((p) => `${p.model} ${priceText(p)}`);
  const unknown = pricing.unpriced.map(
    (m) => `${m}: cost unknown (no price in llm.prices or ${PRICE_LIBRARY}; set ${priceConfigKey(m)})`,
  );
  return `prices: ${[...known, ...unknown].join('; ')}`;
}

function priceText(p: KnownPrice): string {
  if (p.source === 'local') return 'free (embedded model)';
  const { inputPerMTok, outputPerMTok, cachedInputPerMTok } = p.price;
  const cached = cachedInputPerMTok !== undefined ? `, cached input $${cachedInputPerMTok}` : '';
  const from = p.source === 'config' ? 'llm.prices' : `${PRICE_LIBRARY} (${p.provider}/${p.libraryModel})`;
  return `$${inputPerMTok} in / $${outputPerMTok} out per million tokens${cached}, from ${from}`;
}
