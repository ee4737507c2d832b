import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addUsage, ZERO_USAGE } from '../../contracts/conversation';
import { costOf, Spend, TokenUsage, USAGE_COUNTS } from '../../lib/llm';
import { StageLedger } from '../../workflows/spreadsheetbench/stageLedger';
import { sourceFiles } from '../architecture/importGraph';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const price = { inputPerMTok: 2, outputPerMTok: 8 };

describe('TokenUsage: the one usage type, which adds and prices itself', () => {
  it('adds count by count; a record without the optional counts stays exactly as it was stored', () => {
    const a = { inputTokens: 100, outputTokens: 20 };
    const b = { inputTokens: 50, outputTokens: 5 };
    expect(TokenUsage.add(a, b)).toStrictEqual({ inputTokens: 150, outputTokens: 25 });
    expect(TokenUsage.add(TokenUsage.zero(), a)).toStrictEqual(a);
  });

  it('adds cached-input and reasoning counts when either side has them', () => {
    const withCounts = { inputTokens: 100, outputTokens: 40, cachedInputTokens: 60, reasoningTokens: 30 };
    expect(TokenUsage.add(withCounts, { inputTokens: 10, outputTokens: 4 })).toStrictEqual({
      inputTokens: 110,
      outputTokens: 44,
      cachedInputTokens: 60,
      reasoningTokens: 30,
    });
    expect(TokenUsage.add(withCounts, withCounts)).toMatchObject({ cachedInputTokens: 120, reasoningTokens: 60 });
    expect(USAGE_COUNTS).toEqual(['inputTokens', 'outputTokens', 'cachedInputTokens', 'reasoningTokens']);
  });

  it('prices itself; costOf is the same price looked up by model; an unpriced model costs 0', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 500_000 };
    expect(TokenUsage.priceWith(usage, price)).toBeCloseTo(2 + 4, 12);
    expect(costOf(usage, 'm', { m: price })).toBe(TokenUsage.priceWith(usage, price));
    expect(costOf(usage, 'unpriced', { m: price })).toBe(0);
    expect(TokenUsage.total(usage)).toBe(1_500_000);
  });
});

describe('Spend: calls, tokens and cost added up the same way everywhere', () => {
  it('a stage ledger, a DSBench question and a conversation sum with the one adder', () => {
    const calls = [
      { usage: { inputTokens: 10, outputTokens: 2 }, costUsd: 0.5 },
      { usage: { inputTokens: 30, outputTokens: 4 }, costUsd: 0.25 },
    ];
    const summed = calls.map(Spend.ofCall).reduce(Spend.add, Spend.zero());
    expect(summed).toStrictEqual({ usage: { inputTokens: 40, outputTokens: 6 }, costUsd: 0.75, llmCalls: 2 });

    const ledger = new StageLedger();
    const plan = ledger.begin('plan');
    for (const c of calls) ledger.charge(plan, c.usage, c.costUsd);
    ledger.charge(ledger.begin('solve'), { inputTokens: 1, outputTokens: 1 }, 0, 2);
    expect(plan).toMatchObject(summed);
    expect(ledger.totals()).toStrictEqual({ usage: { inputTokens: 41, outputTokens: 7 }, costUsd: 0.75, llmCalls: 4 });

    const conversation = calls.reduce((u, c) => addUsage(u, { ...c.usage, costUsd: c.costUsd }), ZERO_USAGE);
    expect(conversation).toStrictEqual({ inputTokens: 40, outputTokens: 6, costUsd: 0.75 });
  });

  it('no product file adds token counts by hand', () => {
    const handAdded =
      /(input|output)Tokens\s*(\+=|:\s*[\w.]+\.(input|output)Tokens\s*\+\s*[\w.]+\.(input|output)Tokens)/;
    const found = sourceFiles(REPO)
      .filter((f) => !f.startsWith('test/') && f.endsWith('.ts') && f !== 'lib/llm/usage.ts')
      .flatMap((f) =>
        readFileSync(path.join(REPO, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (handAdded.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
