import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchmarkRun, startE2E, workerProcessEnv, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';
import { copyInputReply } from '../helpers/copyInput';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';
import type { RunProgress } from '../../contracts/run';
import type { TaskResult } from '../../contracts/taskResult';

/**
 * Bad input: the only worker mounts the store at the wrong place. It says so, the run waits (nothing fails), and a
 * worker with the right root finishes it.
 */
describe('a worker whose artifacts root does not hold the run folder', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  let wrongStderr = '';
  let wrong: WorkerProcess;
  let right: WorkerProcess | undefined;
  let emptyRoot: string;

  beforeAll(async () => {
    const store = mkdtempSync(path.join(os.tmpdir(), 'sb-roots-'));
    const root = path.join(store, 'runs');
    emptyRoot = path.join(store, 'not-mounted');
    mkdirSync(root);
    mkdirSync(emptyRoot);
    env = await startE2E(
      { rules: [], fallback: copyInputReply },
      { config: { recalc: { engine: 'none' }, artifacts: { root } } },
    );
    run = await startBenchmarkRun(env, { dataset: SAMPLE, runDir: path.join(root, 'run-r') });
    wrong = spawnWorker({ ...workerProcessEnv(env), SHEETBENCH_ARTIFACTS_ROOT: emptyRoot });
    wrong.child.stderr!.on('data', (d) => (wrongStderr += d));
    await wrong.ready;
    await waitUntil(() => wrongStderr.includes('does not hold run-r'), 120_000, 'the wrong worker to name the cause');
    // The store is "mounted": a worker with the right root joins; the wrong one is stopped.
    right = spawnWorker({ ...workerProcessEnv(env), SHEETBENCH_ARTIFACTS_ROOT: root });
    await right.ready;
    wrong.child.kill('SIGTERM');
    final = (await run.handle.result()) as RunProgress;
  }, 300_000);
  afterAll(async () => {
    wrong?.crash();
    right?.crash();
    await env?.close();
  });

  it('names its root, the run folder and the fix', () => {
    expect(wrongStderr).toContain(
      `artifacts root ${emptyRoot} does not hold run-r (no ${path.join(emptyRoot, 'run-r', 'run.json')})`,
    );
    expect(wrongStderr).toContain('SHEETBENCH_ARTIFACTS_ROOT');
  });

  it('the run waited and then finished every task, none failed for it', () => {
    expect(final.done).toBe(3);
    expect(final.failed).toBe(0);
    const results = readdirSync(path.join(run.runDir, 'results')).map(
      (f) => JSON.parse(readFileSync(path.join(run.runDir, 'results', f), 'utf8')) as TaskResult,
    );
    expect(results).toHaveLength(3);
    expect(results.filter((r) => r.failure)).toEqual([]);
  });
});
