import { describe, expect, it } from 'vitest';
import { costOf } from '../../lib/llm';
import { knownCostOf, libraryPriceOf, priceConfigKey, priceOf } from '../../lib/llm/pricing';
import { TokenUsage } from '../../lib/llm/usage';

const MTOK = 1_000_000;

describe('prices from the bundled price library', () => {
  it("prices gpt-4o-mini at OpenAI's list price (input, cached input, output) without any configuration", () => {
    const found = priceOf('gpt-4o-mini', { prices: {} });
    expect(found).toMatchObject({
      source: 'library',
      provider: 'openai',
      price: { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 },
    });
    expect(costOf({ inputTokens: MTOK, outputTokens: MTOK }, 'gpt-4o-mini', {})).toBeCloseTo(0.75, 12);
  });

  it('prices cached prompt tokens at the cached rate and reasoning tokens as output', () => {
    // 1M prompt tokens of which 400k cached; 1M completion tokens of which 800k reasoning (gpt-5: 1.25 / 0.125 / 10).
    const usage = { inputTokens: MTOK, cachedInputTokens: 400_000, outputTokens: MTOK, reasoningTokens: 800_000 };
    expect(costOf(usage, 'gpt-5', {})).toBeCloseTo(0.6 * 1.25 + 0.4 * 0.125 + 10, 9);
  });

  it('finds a vendor/model name through the endpoint it is served by (OpenRouter)', () => {
    expect(libraryPriceOf('deepseek/deepseek-r1')).toBeUndefined();
    expect(libraryPriceOf('deepseek/deepseek-r1', 'https://openrouter.ai/api/v1')).toMatchObject({
      provider: 'openrouter',
    });
  });

  it('falls back to the model name on an endpoint the library does not know (a local server)', () => {
    expect(priceOf('gpt-4o-mini', { prices: {}, baseUrl: 'http://127.0.0.1:9/v1' })?.source).toBe('library');
  });

  it('does not know a made-up model: no price, and the cost is unknown (not 0)', () => {
    expect(priceOf('scripted-model', { prices: {} })).toBeUndefined();
    expect(knownCostOf({ inputTokens: 10, outputTokens: 10 }, 'scripted-model', { prices: {} })).toBeUndefined();
  });
});

describe('llm.prices overrides the library', () => {
  const prices = { 'gpt-4o-mini': { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: 0.5 } };

  it('uses the configured price for that model', () => {
    expect(priceOf('gpt-4o-mini', { prices })).toMatchObject({ source: 'config', price: prices['gpt-4o-mini'] });
    const usage = { inputTokens: MTOK, cachedInputTokens: MTOK / 2, outputTokens: MTOK };
    expect(costOf(usage, 'gpt-4o-mini', prices)).toBeCloseTo(0.5 + 0.25 + 2, 12);
  });

  it('prices cached and reasoning tokens at the input and output rate when the override gives no such rate', () => {
    const usage = { inputTokens: 100, cachedInputTokens: 60, outputTokens: 50, reasoningTokens: 30 };
    expect(TokenUsage.priceWith(usage, { inputPerMTok: 1, outputPerMTok: 2 })).toBeCloseTo((100 + 100) / MTOK, 15);
  });

  it('prices the embedded model at nothing', () => {
    expect(priceOf('local-qwen2.5-coder-0.5b', { prices: {}, local: true })).toMatchObject({ source: 'local' });
  });

  it('names the config key that prices a model, quoting names that are not identifiers', () => {
    expect(priceConfigKey('scripted')).toBe('llm.prices.scripted');
    expect(priceConfigKey('gpt-4o-mini')).toBe('llm.prices["gpt-4o-mini"]');
  });
});
