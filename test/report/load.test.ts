import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRun, RunFolderError } from '../../benchmarks/spreadsheetbench/report/load';
import { buildRunFolder, makeTempDir, standardRun } from './fixtures';

describe('loadRun', () => {
  it('loads tasks, results, transcripts and outputs; missing results are pending', async () => {
    const dir = await buildRunFolder(await makeTempDir(), standardRun());
    const run = await loadRun(dir);
    expect(run.manifest.runId).toBe('run-a');
    expect(run.tasks.map((t) => t.key)).toEqual(['101', '102', '13-1', '104', '105']);
    expect(run.tasks.filter((t) => !t.result).map((t) => t.key)).toEqual(['105']);
    expect(run.tasks.find((t) => t.key === '13-1')?.result?.failure?.class).toBe('llm');
    expect(run.tasks.filter((t) => t.hasTranscript).map((t) => t.key)).toEqual(['101', '102', '13-1', '104']);
    expect(run.tasks[0].outputFiles).toEqual(
      ['1_101_output.xlsx', '2_101_output.xlsx', '3_101_output.xlsx'].map((n) => `outputs/single_gpt-4o-mini/${n}`),
    );
    expect(run.lastResultAt).toBeInstanceOf(Date);
  });

  it('names the file and the cause when run.json is missing', async () => {
    const dir = path.join(await makeTempDir(), 'nope');
    await expect(loadRun(dir)).rejects.toThrow(new RunFolderError(path.join(dir, 'run.json'), 'file is missing'));
  });

  it('names the file and the field of a malformed result', async () => {
    const dir = await buildRunFolder(await makeTempDir(), standardRun());
    const file = path.join(dir, 'results', '102.json');
    await writeFile(file, JSON.stringify({ taskId: '102', soft: 'high' }));
    const err = await loadRun(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunFolderError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/soft: .*number/);
  });

  it('reports invalid JSON and a result filed under the wrong task', async () => {
    const dir = await buildRunFolder(await makeTempDir(), standardRun());
    await writeFile(path.join(dir, 'tasks.json'), '[{"id": 1,');
    await expect(loadRun(dir)).rejects.toThrow(/tasks\.json: not valid JSON/);
    const dir2 = await buildRunFolder(await makeTempDir(), standardRun());
    await rm(path.join(dir2, 'results', '102.json'));
    await writeFile(
      path.join(dir2, 'results', '999.json'),
      await readFile(path.join(dir2, 'results', '101.json'), 'utf8'),
    );
    await expect(loadRun(dir2)).rejects.toThrow(/999\.json: holds the result of task 101, not 999/);
  });
});
