import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRun, planRun } from '../../client/createRun';
import { unpricedModelsOf } from '../../client/runPrices';
import { configSchema } from '../../config/schema';
import { ConfigError } from '../../config/load';
import { formatProgress } from '../../cli/progressBar';
import { describePricing, UnknownPriceError } from '../../lib/llm/pricing';
import type { RunProgress } from '../../contracts/run';

const DONE: RunProgress = {
  runId: 'r',
  total: 1,
  done: 1,
  running: 0,
  pending: 0,
  failed: 0,
  passRateSoft: 0,
  passRateHard: 0,
  usage: { inputTokens: 5, outputTokens: 5 },
  costUsd: 0,
  llmCalls: 1,
  paused: false,
  startedAtMs: 0,
  elapsedMs: 1_000,
  etaMs: null,
  reservedUsd: 0,
  waitingCalls: 0,
};
const SAMPLE = path.resolve(__dirname, '../../data/sample');
const endpoint = { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' };

async function create(llm: Record<string, unknown>, run: Record<string, unknown> = {}) {
  const config = configSchema.parse({ llm: { ...endpoint, ...llm }, run });
  const runDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-pricing-')), 'run');
  const plan = await planRun({ datasetDir: SAMPLE, agent: 'single', limit: 1 });
  const created = await createRun(config, plan, { runDir }).catch((err: unknown) => err);
  return { created, runDir };
}

describe('a dollar budget needs a known price', () => {
  it('refuses to create a run whose model has no price, naming the model and the config key, writing nothing', async () => {
    const { created, runDir } = await create({ model: 'acme-reasoner-9' }, { budgetUsd: 0.5 });
    expect(created).toBeInstanceOf(UnknownPriceError);
    expect(created).toBeInstanceOf(ConfigError); // the CLI exits 3 (config)
    const message = (created as Error).message;
    expect(message).toContain('no price is known for model "acme-reasoner-9"');
    expect(message).toContain('llm.prices["acme-reasoner-9"]');
    expect(message).toContain('run.budgetUsd (--budget-usd) = 0.5');
    expect(existsSync(runDir)).toBe(false);
  });

  it('refuses a per-task dollar budget the same way', async () => {
    const { created } = await create({ model: 'acme-reasoner-9' }, { taskBudgetUsd: 0.1 });
    expect((created as Error).message).toContain('run.taskBudgetUsd = 0.1');
  });

  it('starts a budgeted run on a model the library prices, recording where the price came from', async () => {
    const { created, runDir } = await create({ model: 'gpt-4o-mini' }, { budgetUsd: 0.5 });
    expect(created).toMatchObject({ pricing: { unpriced: [], priced: [{ model: 'gpt-4o-mini', source: 'library' }] } });
    const recorded = JSON.parse(readFileSync(path.join(runDir, 'prices.json'), 'utf8')) as unknown;
    expect(recorded).toMatchObject({ priced: [{ price: { inputPerMTok: 0.15, outputPerMTok: 0.6 } }] });
  });

  it('starts a budgeted run on an unknown model once llm.prices prices it', async () => {
    const prices = { 'acme-reasoner-9': { inputPerMTok: 1, outputPerMTok: 2 } };
    const { created } = await create({ model: 'acme-reasoner-9', prices }, { budgetUsd: 0.5 });
    expect(created).toMatchObject({ pricing: { priced: [{ source: 'config' }] } });
  });

  it('without a budget, starts and reports the cost as unknown (not $0)', async () => {
    const { created, runDir } = await create({ model: 'acme-reasoner-9' });
    const { pricing } = created as Awaited<ReturnType<typeof createRun>>;
    expect(describePricing(pricing)).toContain('acme-reasoner-9: cost unknown');
    expect(await unpricedModelsOf(runDir)).toEqual(['acme-reasoner-9']);
    const line = formatProgress(DONE, 0, 24, { unpriced: ['acme-reasoner-9'] });
    expect(line).toContain('cost unknown for acme-reasoner-9');
    expect(line).not.toContain('$0.0000');
  });
});
