import { describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { configSchema } from '../../config/schema';
import { ConfigError } from '../../config/load';
import { assertConversationPriced } from '../../analysis/conversation/budgetPricing';
import { ConversationService } from '../../client/conversations';
import { UnknownPriceError } from '../../lib/llm/pricing';

const endpoint = { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' };
const configOf = (llm: Record<string, unknown>, conversation: Record<string, unknown>) =>
  configSchema.parse({ llm: { ...endpoint, ...llm }, conversation });
const refusal = (fn: () => unknown): unknown => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err;
  }
};

/** Bad input: `conversation.budgetUsd` (serve, ask) on a model no price table knows, as `run --budget-usd` is refused. */
describe('a conversation dollar budget needs a known price', () => {
  it('refuses a model without a price, naming the model, the budget key and the llm.prices key (a config error)', () => {
    const err = refusal(() => assertConversationPriced(configOf({ model: 'acme-analyst-2' }, { budgetUsd: 0.5 })));
    expect(err).toBeInstanceOf(UnknownPriceError);
    expect(err).toBeInstanceOf(ConfigError); // the CLI exits 3 (config)
    const message = (err as Error).message;
    expect(message).toContain('the conversation has a dollar budget (conversation.budgetUsd = 0.5)');
    expect(message).toContain('no price is known for model "acme-analyst-2"');
    expect(message).toContain('Set llm.prices["acme-analyst-2"]');
  });

  it('accepts a model the price library knows, one llm.prices prices, and any model without a dollar budget', () => {
    expect(refusal(() => assertConversationPriced(configOf({ model: 'gpt-4o-mini' }, { budgetUsd: 0.5 })))).toBe(
      undefined,
    );
    const prices = { 'acme-analyst-2': { inputPerMTok: 1, outputPerMTok: 2 } };
    expect(
      refusal(() => assertConversationPriced(configOf({ model: 'acme-analyst-2', prices }, { budgetUsd: 0.5 }))),
    ).toBe(undefined);
    expect(
      refusal(() => assertConversationPriced(configOf({ model: 'acme-analyst-2' }, { budgetTokens: 1_000 }))),
    ).toBe(undefined);
  });

  it('the conversation service (behind serve and ask) cannot be made with such a budget', () => {
    const config = configOf({ model: 'acme-analyst-2' }, { budgetUsd: 0.5 });
    // Never connected: the refusal comes before the service uses its client.
    const client = {} as Client;
    expect(refusal(() => new ConversationService({ client, config }))).toBeInstanceOf(UnknownPriceError);
  });
});
