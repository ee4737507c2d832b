/**
 * The sheet preview server starts where SpreadsheetBench needs it: when a worker prepares a SpreadsheetBench task whose
 * preview is not yet built for its dataset version, not when a worker is made (the layer rule keeps workers/ from
 * reaching benchmarks/spreadsheetbench/ at all), and never for a task whose preview the store already keeps.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../config/schema';
import { createRun, planRun } from '../../client/createRun';
import { createActivities } from '../../activities';
import { taskActivities } from '../../activities/spreadsheetbench/task';
import { cachedPreview } from '../../activities/spreadsheetbench/preview';
import { previewServer } from '../../benchmarks/spreadsheetbench/agents/preview';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/sample');

describe('the preview server starts with the first SpreadsheetBench task that needs a preview built', () => {
  const config = configSchema.parse({ llm: { provider: 'openai', baseUrl: 'http://127.0.0.1:1', model: 'm' } });
  const newRun = async (runId: string) => {
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-preview-warm-'));
    await createRun(config, await planRun({ datasetDir: SAMPLE, agent: 'single' }), { runDir, runId });
    return runDir;
  };

  beforeAll(() => {
    // An empty cache folder of the test's own: nothing is kept yet for the sample's dataset version.
    vi.stubEnv('XDG_CACHE_HOME', mkdtempSync(path.join(os.tmpdir(), 'sb-preview-cache-')));
  });
  afterAll(() => {
    previewServer().close();
    vi.unstubAllEnvs();
  });

  it('making every activity starts nothing; preparing a task whose preview is not kept starts it', async () => {
    const runDir = await newRun('warm');
    createActivities({ config, sandboxFactory: () => Promise.reject(new Error('no sandbox in this test')) });
    expect(previewServer().pid).toBeUndefined();
    await taskActivities.prepareTask({ runDir, taskId: '1001' });
    expect(previewServer().pid).toBeGreaterThan(0);
  });

  it('a preview built once is read back by another run of the same dataset, which starts no preview server', async () => {
    const first = await sheetRun(await newRun('first'));
    const built = await cachedPreview(first, '1002');
    previewServer().close();
    const restarted = previewServer();
    const second = await sheetRun(await newRun('second'));
    await taskActivities.prepareTask({ runDir: second.layout.root, taskId: '1002' });
    expect(restarted.pid).toBeUndefined();
    expect(await cachedPreview(second, '1002')).toBe(built);
    expect(restarted.pid).toBeUndefined();
  });
});
