/**
 * The sheet preview server starts where SpreadsheetBench needs it: when a worker prepares its first SpreadsheetBench
 * task, not when a worker is made (the layer rule keeps workers/ from reaching benchmarks/spreadsheetbench/ at all).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema';
import { createRun, planRun } from '../../client/createRun';
import { createActivities } from '../../activities';
import { taskActivities } from '../../activities/spreadsheetbench/task';
import { previewServer } from '../../benchmarks/spreadsheetbench/agents/preview';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/sample');

describe('the preview server starts with the first SpreadsheetBench task, not with the worker', () => {
  afterAll(() => previewServer().close());

  it('making every activity starts nothing; preparing a SpreadsheetBench task starts it', async () => {
    const config = configSchema.parse({ llm: { provider: 'openai', baseUrl: 'http://127.0.0.1:1', model: 'm' } });
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-preview-warm-'));
    await createRun(config, await planRun({ datasetDir: SAMPLE, agent: 'single' }), { runDir, runId: 'warm' });
    createActivities({ config, sandboxFactory: () => Promise.reject(new Error('no sandbox in this test')) });
    expect(previewServer().pid).toBeUndefined();
    await taskActivities.prepareTask({ runDir, taskId: '1001' });
    expect(previewServer().pid).toBeGreaterThan(0);
  });
});
