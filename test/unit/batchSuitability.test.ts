import { describe, expect, it } from 'vitest';
import { batchRefusal } from '../../client/batchSuitability';
import { planRun } from '../../client/createRun';
import { configSchema } from '../../config/schema';
import { DEV20 } from '../helpers/datasets';

const endpoint = configSchema.parse({ llm: { baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' } });

describe('run --batch: which settings it takes', () => {
  it('takes the single-round setting', async () => {
    const plan = await planRun({ datasetDir: DEV20, agent: 'single', taskIds: ['39604'] });
    expect(batchRefusal(endpoint, plan)).toBeUndefined();
  });

  it.each(['row_react_exec', 'sheetcopilot', 'checked_vote'])(
    'refuses %s, saying its calls wait on one another and which settings suit',
    async (agent) => {
      const plan = await planRun({ datasetDir: DEV20, agent, taskIds: ['39604'] });
      expect(batchRefusal(endpoint, plan)).toBe(
        `--batch: SpreadsheetBench setting ${agent} makes model calls that wait on one another (rounds, stages), so ` +
          'it would take many batch round trips of up to 24 h each; --batch suits single (SpreadsheetBench); ' +
          'model-only (DSBench data analysis)',
      );
    },
  );

  it('refuses the embedded model, which has no batch API', async () => {
    const plan = await planRun({ datasetDir: DEV20, agent: 'single', taskIds: ['39604'] });
    expect(batchRefusal(configSchema.parse({}), plan)).toMatch(/needs an OpenAI-compatible endpoint .*--base-url/);
  });
});
