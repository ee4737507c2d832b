import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { copyInputReply } from '../helpers/copyInput';
import { EXIT } from '../../cli/exitCodes';
import { runCli, type CliResult } from '../helpers/cliProcess';
import { cliWorkspace } from '../helpers/cliWorkspace';
import { runArgs } from '../helpers/runArgs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = path.join(REPO, 'data/sample');

/** The sheetbench CLI as a user runs it (bin/sheetbench), against this test's servers. */
describe('sheetbench CLI: runs, control and clear failures', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let env: NodeJS.ProcessEnv;
  let work: string;

  function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    return runCli(args, { cwd: work, env: { ...env, ...extraEnv } });
  }

  beforeAll(async () => {
    temporal = await startTestTemporal();
    llm = await startScriptedServer({ script: { rules: [], fallback: copyInputReply } });
    ({ work, env } = cliWorkspace('sb-cli-', temporal, {
      recalc: { engine: 'none' },
      temporal: { taskQueue: 'cli-main', recalcTaskQueue: 'cli-recalc' },
    }));
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
  });

  it('runs the bundled sample end to end and prints the scores', async () => {
    const res = await cli([
      ...runArgs({
        dataset: SAMPLE,
        baseUrl: llm.url,
        model: 'scripted',
        runId: 'cli-run-1',
        out: path.join(work, 'r1'),
      }),
    ]);
    expect(res.stderr).toContain('run cli-run-1: 3 tasks, agent single, model scripted (openai)');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/scores \(3\/3 tasks\): soft 0\.00% {2}hard 0\.00%/);
    const evalJson = JSON.parse(readFileSync(path.join(work, 'r1', 'eval_single_scripted.json'), 'utf8'));
    expect(evalJson.map((e: { id: unknown }) => e.id)).toEqual([1001, '2001-1', 1002]);
  }, 180_000);

  it('status reports a finished run; resume refuses a different experiment', async () => {
    const status = await cli(['status', path.join(work, 'r1'), '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ total: 3, done: 3, running: 0 });
    const resume = await cli(['resume', path.join(work, 'r1'), '--model', 'another-model', '--no-worker']);
    expect(resume.code).toBe(EXIT.mismatch);
    expect(resume.stderr).toContain('is a different experiment: model scripted → another-model');
  }, 60_000);

  it('refuses a budget below what is spent, and has nothing to retry', async () => {
    const budget = await cli(['budget', path.join(work, 'r1'), '--usd', '-1']);
    expect(budget.code).toBe(EXIT.usage);
    expect(budget.stderr).toContain('expected a positive number, got -1');
    const retry = await cli(['retry', path.join(work, 'r1'), '--failed', '--no-worker']);
    expect(retry.code).toBe(0);
    expect(retry.stdout).toContain('no task failed for an infrastructure reason');
  }, 60_000);

  it('names the cause of bad input with a distinct exit code', async () => {
    const noDataset = await cli(['run', '--dataset', path.join(work, 'nope')]);
    expect(noDataset.code).toBe(EXIT.dataset);
    expect(noDataset.stderr).toContain(`dataset folder ${path.join(work, 'nope')} does not exist`);
    const unknownRun = await cli(['status', 'no-such-run']);
    expect(unknownRun.code).toBe(EXIT.notFound);
    expect(unknownRun.stderr).toContain('unknown run no-such-run');
    const badTask = await cli(['run', '--dataset', SAMPLE, '--tasks', '1001,9999', '--base-url', llm.url]);
    expect(badTask.code).toBe(EXIT.dataset);
    expect(badTask.stderr).toContain('unknown task id(s): 9999');
  }, 60_000);

  it('a wrong API key fails each task with its cause, and the run still finishes', async () => {
    llm.setScript({ rules: [{ fault: { kind: 'status', status: 401, message: 'Incorrect API key provided' } }] });
    const res = await cli([
      ...runArgs({
        dataset: SAMPLE,
        baseUrl: llm.url,
        model: 'scripted',
        runId: 'cli-run-2',
        out: path.join(work, 'r2'),
      }),
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('tasks with failures: 3 {"llm":3}');
    const result = JSON.parse(readFileSync(path.join(work, 'r2', 'results', '1001.json'), 'utf8'));
    expect(result.failure.class).toBe('llm');
    expect(result.failure.message).toMatch(/auth.*Incorrect API key/);
    // The key is fixed: `retry --failed` re-runs exactly the failed tasks and re-scores the run.
    llm.setScript({ rules: [], fallback: copyInputReply });
    const retry = await cli(['retry', path.join(work, 'r2'), '--failed']);
    expect(retry.code).toBe(0);
    expect(retry.stdout).toContain('retrying 3 task(s)');
    expect(retry.stdout).not.toContain('tasks with failures');
    const after = JSON.parse(readFileSync(path.join(work, 'r2', 'results', '1001.json'), 'utf8'));
    expect(after.failure).toBeUndefined();
    expect(after.llmCalls).toBe(1);
  }, 240_000);
});
