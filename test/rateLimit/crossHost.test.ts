import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intervalOf, maxOverlap, maxStartsPerWindow } from '../helpers/requestIntervals';
import { startBenchmarkRun, startE2E, workerProcessEnv, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';
import { copyInputReply } from '../helpers/copyInput';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';
import type { RunProgress } from '../../contracts/run';

const TASKS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'];
const LIMITS = { maxConcurrent: 2, requestsPerMinute: 3, windowMs: 4_000 };

/**
 * Two worker processes that share only the Temporal server and the run folder — each sees the folder under its own
 * artifacts root — serve one run with a provider limit of 2 concurrent calls and 3 requests per (shortened) window.
 * The scripted server's log is the judge.
 */
describe('the LLM rate limit holds across worker processes (held by Temporal, no shared files)', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    const store = mkdtempSync(path.join(os.tmpdir(), 'sb-store-'));
    const rootA = path.join(store, 'host-a', 'runs');
    const rootB = path.join(store, 'host-b');
    mkdirSync(rootA, { recursive: true });
    symlinkSync(rootA, rootB); // host B mounts the same store elsewhere
    env = await startE2E(
      { rules: [], fallback: copyInputReply, latencyMs: 600 },
      {
        config: {
          run: { concurrency: 8 },
          recalc: { engine: 'none' },
          artifacts: { root: rootA },
          llm: { sharedLimits: LIMITS, rateLimitDir: path.join(store, 'unused') },
        },
      },
    );
    run = await startBenchmarkRun(env, {
      dataset: copiesOfSampleTask(rootA, TASKS),
      tasks: TASKS,
      runDir: path.join(rootA, 'run-x'),
    });
    for (const root of [rootA, rootB])
      workers.push(spawnWorker({ ...workerProcessEnv(env), SHEETBENCH_ARTIFACTS_ROOT: root }));
    await Promise.all(workers.map((w) => w.ready));
    final = (await run.handle.result()) as RunProgress;
  }, 400_000);
  afterAll(async () => {
    for (const w of workers) w.crash();
    await env?.close();
  });

  const calls = () =>
    env.llm.log
      .filter((e) => e.status === 200)
      .map(intervalOf)
      .sort((a, b) => a.start - b.start);

  it('ran the whole run, with relative run-folder payloads, on two workers with different roots', async () => {
    expect(final.done).toBe(TASKS.length);
    expect(readdirSync(path.join(run.runDir, 'results')).sort()).toEqual(TASKS.map((t) => `${t}.json`).sort());
    expect((await run.handle.describe()).memo?.runDir).toBe('run-x');
    expect(JSON.parse(readFileSync(path.join(run.runDir, 'run.json'), 'utf8')).datasetDir).toBe('../dataset');
  });

  it('never had more than maxConcurrent calls at the provider at once, and did use the slots', () => {
    expect(calls()).toHaveLength(TASKS.length);
    expect(maxOverlap(calls())).toBeLessThanOrEqual(LIMITS.maxConcurrent);
  });

  it('never started more than requestsPerMinute calls within one window', () => {
    const starts = calls().map((c) => c.start);
    expect(maxStartsPerWindow(starts, LIMITS.windowMs)).toBeLessThanOrEqual(LIMITS.requestsPerMinute);
    // 8 calls at 3 per window need at least two full windows between the first and the last.
    expect(starts.at(-1)! - starts[0]).toBeGreaterThanOrEqual(2 * LIMITS.windowMs);
  });
});

/** A dataset of copies of the sample's first task under new ids (one LLM call each with the single agent). */
function copiesOfSampleTask(dir: string, ids: string[]): string {
  const [task] = JSON.parse(readFileSync(path.join(SAMPLE, 'dataset.json'), 'utf8')) as {
    id: number;
    spreadsheet_path: string;
  }[];
  const dataset = path.join(dir, 'dataset');
  for (const id of ids) {
    mkdirSync(path.join(dataset, 'spreadsheet', id), { recursive: true });
    for (const n of [1, 2, 3]) {
      for (const kind of ['input', 'answer']) {
        copyFileSync(
          path.join(SAMPLE, task.spreadsheet_path, `${n}_${task.id}_${kind}.xlsx`),
          path.join(dataset, 'spreadsheet', id, `${n}_${id}_${kind}.xlsx`),
        );
      }
    }
  }
  writeFileSync(
    path.join(dataset, 'dataset.json'),
    JSON.stringify(ids.map((id) => ({ ...task, id, spreadsheet_path: `spreadsheet/${id}` }))),
  );
  return dataset;
}
