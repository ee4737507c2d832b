import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchmarkError, detectBenchmark } from '../../benchmarks';
import { testCaseFiles, loadDataset } from '../../benchmarks/spreadsheetbench/dataset';
import { benchmarkHealth } from '../../benchmarks/spreadsheetbench/scoring/health';
import { sharedData } from '../helpers/sharedData';

const ROOT = path.resolve(__dirname, '../..');

describe('benchmark detection', () => {
  it('detects SpreadsheetBench (912 layout), Verified, and DSBench from the folder', async () => {
    expect(await detectBenchmark(path.join(ROOT, 'data/sample'))).toMatchObject({
      benchmark: { name: 'spreadsheetbench' },
      edition: '912_v0.1',
      how: 'detected',
    });
    expect(await detectBenchmark(path.join(ROOT, 'data/verified-sample'))).toMatchObject({
      benchmark: { name: 'spreadsheetbench' },
      edition: 'verified_400',
    });
    expect(await detectBenchmark(path.join(ROOT, 'data/dsbench-sample'))).toMatchObject({
      benchmark: { name: 'dsbench' },
      edition: 'data_analysis',
    });
    expect(await detectBenchmark(sharedData('dsbench'))).toMatchObject({ benchmark: { name: 'dsbench' } });
    expect(await detectBenchmark(path.join(ROOT, 'data/analysis'))).toMatchObject({
      benchmark: { name: 'analysis' },
      edition: 'v1',
      how: 'detected',
    });
  });
  it('loads the analysis suite without its answers and versions it by content', async () => {
    const { benchmark, dataset } = await detectBenchmark(path.join(ROOT, 'data/analysis'));
    const tasks = benchmark.select(dataset.tasks, { ids: ['a01', 'a07'] });
    expect(tasks).toEqual([
      expect.objectContaining({ id: 'a01', level: 1, files: ['sales.csv'] }),
      expect.objectContaining({ id: 'a07', fetch: 'items.json' }),
    ]);
    expect(JSON.stringify(dataset.tasks)).not.toMatch(/tolerance|expected|1988/);
    expect(dataset.version).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(dataset.version).toBe(await benchmark.datasetVersion(path.join(ROOT, 'data/analysis')));
    expect(benchmark.settings[0]).toBe('auto');
    expect(() => benchmark.select(dataset.tasks, { ids: ['a99'] })).toThrow(/no request a99/);
  });
  it('takes --benchmark / --edition over detection and refuses unknown names', async () => {
    expect(await detectBenchmark(path.join(ROOT, 'data/sample'), { edition: 'sample_data_200' })).toMatchObject({
      edition: 'sample_data_200',
      how: 'given',
    });
    await expect(detectBenchmark(path.join(ROOT, 'data/sample'), { edition: 'v9' })).rejects.toThrow(
      /unknown spreadsheetbench edition v9 \(known: 912_v0.1, sample_data_200, verified_400\)/,
    );
    await expect(detectBenchmark(path.join(ROOT, 'data/sample'), { benchmark: 'nope' })).rejects.toThrow(
      /unknown benchmark nope \(known: spreadsheetbench2, spreadsheetbench, dsbench, analysis\)/,
    );
    await expect(detectBenchmark(mkdtempSync(path.join(tmpdir(), 'sb-empty-')))).rejects.toBeInstanceOf(BenchmarkError);
    await expect(detectBenchmark('/nonexistent/x')).rejects.toThrow(
      'dataset folder /nonexistent/x does not exist (or is not a folder)',
    );
  });
  it("resolves Verified's file names: init/golden, bare initial/golden, and 42930's golden named 43930", async () => {
    const dir = path.join(ROOT, 'data/verified-sample');
    const tasks = await loadDataset(dir);
    const files = Object.fromEntries(
      await Promise.all(
        tasks.map(async (t) => [
          t.id,
          (await testCaseFiles(dir, t)).map((c) => [
            path.basename(c.inputPath),
            c.inputName,
            path.basename(c.answerPath),
          ]),
        ]),
      ),
    );
    expect(files).toEqual({
      71001: [['1_71001_init.xlsx', '1_71001_input.xlsx', '1_71001_golden.xlsx']],
      13284: [['initial.xlsx', '1_13284_input.xlsx', 'golden.xlsx']],
      42930: [['1_42930_init.xlsx', '1_42930_input.xlsx', '1_43930_golden.xlsx']],
    });
  });
  it('health and scoring find the Verified golden files (every golden self-passes; the untouched input does not)', async () => {
    const report = await benchmarkHealth(path.join(ROOT, 'data/verified-sample'));
    expect(report.answerSelfFailures).toEqual([]);
    expect(report.nullAgent.summary).toMatchObject({ tasks: 3, soft: 0, hard: 0 });
  });
});
