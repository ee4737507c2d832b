import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../contracts/run';
import { copyInputReply } from '../helpers/copyInput';
import { readTaskResult, runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';

/** A dataset with one corrupt and one missing workbook: those tasks fail alone with their cause, the rest are scored. */
describe('tasks with missing or corrupt workbooks', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  const dataset = mkdtempSync(path.join(os.tmpdir(), 'sb-bad-ds-'));

  beforeAll(async () => {
    cpSync(SAMPLE, dataset, { recursive: true });
    writeFileSync(path.join(dataset, 'spreadsheet/1001/2_1001_input.xlsx'), 'this is not a zip file');
    rmSync(path.join(dataset, 'spreadsheet/1002/1_1002_input.xlsx'));
    env = await startE2E({ rules: [], fallback: copyInputReply }, { config: { recalc: { engine: 'none' } } });
    run = await startBenchmarkRun(env, { dataset });
    final = await runToEnd(env, run);
  }, 180_000);
  afterAll(async () => env?.close());

  it('names the task and the cause, and asks the model nothing for them', () => {
    const corrupt = readTaskResult(run.runDir, '1001');
    expect(corrupt.failure).toEqual({
      class: 'dataset',
      message: 'task 1001: 2_1001_input.xlsx is not an xlsx (zip) file: corrupt',
    });
    expect(corrupt.llmCalls).toBe(0);
    const missing = readTaskResult(run.runDir, '1002');
    expect(missing.failure?.class).toBe('dataset');
    expect(missing.failure?.message).toBe('task 1002: no input workbook 1_1002_input.xlsx in spreadsheet/1002');
    expect(env.llm.log.filter((e) => e.answered)).toHaveLength(1);
  });

  it('still runs and scores the healthy task, and finishes the run', () => {
    expect(final.done).toBe(3);
    expect(final.failed).toBe(2);
    const healthy = readTaskResult(run.runDir, '2001-1');
    expect(healthy.failure).toBeUndefined();
    expect(healthy.testCaseResults).toEqual([0, 0, 0]);
    const evalJson = JSON.parse(readFileSync(path.join(run.runDir, 'eval_single_scripted-model.json'), 'utf8'));
    expect(evalJson.map((e: { id: unknown }) => e.id)).toEqual([1001, '2001-1', 1002]);
  });
});
