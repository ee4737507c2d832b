import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/exitCodes';
import { runCli } from '../helpers/cliProcess';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bad input: a dollar budget on a model no price table knows. Nothing else is needed (no Temporal, no endpoint). */
describe('sheetbench run --budget-usd on a model without a price', () => {
  it('refuses before anything starts or is written, naming the model and the config key (exit 3)', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'sb-price-refusal-'));
    const out = path.join(work, 'run');
    // An empty config file of its own: no llm.prices from the checkout's config.
    writeFileSync(path.join(work, 'config.json'), '{}');
    const env = { ...process.env, SHEETBENCH_CONFIG: path.join(work, 'config.json'), OPENAI_API_KEY: 'k' };
    const res = await runCli(
      [
        'run',
        '--dataset',
        path.join(REPO, 'data/sample'),
        '--limit',
        '1',
        '--model',
        'acme-reasoner-9',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--budget-usd',
        '0.5',
        '--out',
        out,
      ],
      { cwd: work, env },
    );
    expect(res.code).toBe(EXIT.config);
    expect(res.stderr).toContain('no price is known for model "acme-reasoner-9"');
    expect(res.stderr).toContain('Set llm.prices["acme-reasoner-9"]');
    expect(res.stderr).not.toContain('unreachable'); // refused before the endpoint was asked anything
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

/** The same for a conversation's dollar budget (`conversation.budgetUsd`): `ask` and `serve` refuse before anything starts. */
describe('sheetbench ask and serve with conversation.budgetUsd on a model without a price', () => {
  for (const command of ['ask', 'serve'] as const) {
    it(`${command} refuses before Temporal or a worker starts, naming the model and the config keys (exit 3)`, async () => {
      const work = mkdtempSync(path.join(os.tmpdir(), 'sb-price-refusal-'));
      const conversations = path.join(work, 'conversations');
      writeFileSync(
        path.join(work, 'config.json'),
        JSON.stringify({
          llm: { model: 'acme-analyst-2', baseUrl: 'http://127.0.0.1:9/v1' },
          conversation: { budgetUsd: 0.5, dir: conversations },
        }),
      );
      const env = { ...process.env, SHEETBENCH_CONFIG: path.join(work, 'config.json'), OPENAI_API_KEY: 'k' };
      const args = command === 'ask' ? ['ask', 'What is the total?'] : ['serve', '--port', '0'];
      const res = await runCli(args, { cwd: work, env });
      expect(res.code).toBe(EXIT.config);
      expect(res.stderr).toContain('the conversation has a dollar budget (conversation.budgetUsd = 0.5)');
      expect(res.stderr).toContain('no price is known for model "acme-analyst-2"');
      expect(res.stderr).toContain('Set llm.prices["acme-analyst-2"]');
      expect(existsSync(conversations)).toBe(false);
    }, 60_000);
  }
});
