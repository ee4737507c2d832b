import fs from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planRun } from '../../client/createRun';

const ROOT = path.resolve(__dirname, '../..');
const realReadFile = fs.readFile;

/** Counts the reads of files with these names while `work` runs (every module's `readFile` import is the patched one). */
async function readsDuring(names: string[], work: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts = Object.fromEntries(names.map((n) => [n, 0]));
  (fs as { readFile: typeof fs.readFile }).readFile = ((
    file: Parameters<typeof fs.readFile>[0],
    ...rest: unknown[]
  ) => {
    const name = path.basename(String(file));
    if (name in counts) counts[name]++;
    return (realReadFile as (...a: unknown[]) => ReturnType<typeof fs.readFile>)(file, ...rest);
  }) as typeof fs.readFile;
  syncBuiltinESMExports();
  try {
    await work();
  } finally {
    (fs as { readFile: typeof fs.readFile }).readFile = realReadFile;
    syncBuiltinESMExports();
  }
  return counts;
}

describe('planning a run reads the dataset folder once', () => {
  afterEach(() => {
    (fs as { readFile: typeof fs.readFile }).readFile = realReadFile;
    syncBuiltinESMExports();
  });

  it('SpreadsheetBench: dataset.json is read once for detection, the edition, the tasks and the content version', async () => {
    const counts = await readsDuring(['dataset.json'], async () => {
      const plan = await planRun({ datasetDir: path.join(ROOT, 'data/sample'), agent: 'single', limit: 2 });
      expect(plan).toMatchObject({ edition: '912_v0.1', agent: 'single', how: 'detected' });
      expect(plan.tasks).toHaveLength(2);
      expect(plan.datasetVersion).toMatch(/^sha256:[0-9a-f]{16}:\d+$/);
    });
    expect(counts).toEqual({ 'dataset.json': 1 });
  });

  it('DSBench: data.json is read once', async () => {
    const counts = await readsDuring(['data.json'], () =>
      planRun({ datasetDir: path.join(ROOT, 'data/dsbench-sample') }),
    );
    expect(counts).toEqual({ 'data.json': 1 });
  });

  it('a bad request is refused from what was read, naming the cause', async () => {
    await expect(planRun({ datasetDir: path.join(ROOT, 'data/sample'), taskIds: ['nope'] })).rejects.toThrow(
      'unknown task id(s): nope',
    );
    await expect(planRun({ datasetDir: path.join(ROOT, 'data/sample'), agent: 'wizard' })).rejects.toThrow(
      'unknown spreadsheetbench agent wizard (known: single, row_exec, react_exec, row_react_exec, sheetcopilot, checked_vote)',
    );
  });
});

describe('repeats (--epochs) are asked of the benchmark', () => {
  it('a benchmark that keeps no attempts apart refuses --epochs 2, naming the ones that do', async () => {
    await expect(planRun({ datasetDir: path.join(ROOT, 'data/dsbench-sample'), epochs: 2 })).rejects.toThrow(
      '--epochs above 1 is supported for SpreadsheetBench runs only (this dataset is DSBench data analysis)',
    );
    const plan = await planRun({ datasetDir: path.join(ROOT, 'data/sample'), agent: 'single', epochs: 2 });
    expect(plan.epochs).toBe(2);
  });
});
