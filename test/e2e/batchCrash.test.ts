import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchLayout } from '../../lib/llm/batch/batchFiles';
import { duplicatesAnswered } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import { readBatchStatuses } from '../../client/batchStatus';
import {
  readTaskResult,
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  FAST_FAILOVER,
} from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { copyInputReply } from '../helpers/copyInput';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';

const TASKS = ['39604', '79-7', '599-9', '57105'];

/**
 * kill -9 of every worker while batches are in flight: once the moment the provider has logged the first batch's
 * creation (its reply may never have reached the worker, so the id may be unrecorded), once while a batch is being
 * polled. Judged by the scripted provider's log: no file uploaded twice, no batch created twice, no call answered
 * twice, none lost.
 */
describe('run --batch survives kill -9 of every worker while a batch is in flight', () => {
  let env: E2EEnv;
  let runDir: string;
  let final: RunProgress;
  const kills: { at: string; batchesCreated: number; polls: number; b0001Recorded: boolean }[] = [];

  beforeAll(async () => {
    env = await startE2E(
      {
        rules: Object.values(DEV20_SOLUTIONS),
        fallback: copyInputReply,
        // The first kill lands while the worker waits for the creation's reply: the batch exists, its id is unrecorded.
        batch: { delayMs: 6_000, createReplyDelayMs: 3_000 },
      },
      {
        config: {
          ...FAST_FAILOVER,
          llm: { model: 'gpt-4o-mini', batch: { maxRequests: 2, windowMs: 600_000, pollIntervalMs: 500 } },
          run: { concurrency: 4 },
        },
      },
    );
    const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS, runId: 'batch-kill', batch: true });
    runDir = run.runDir;
    const created = () => env.llm.log.filter((e) => e.route === 'POST /v1/batches').length;
    const polls = () => env.llm.log.filter((e) => e.route === 'GET /v1/batches/batch_…').length;
    const crash = async (worker: WorkerProcess, at: string) => {
      worker.crash();
      await worker.exited;
      kills.push({
        at,
        batchesCreated: created(),
        polls: polls(),
        b0001Recorded: existsSync(BatchLayout.ofRun(runDir).submittedPath('b0001')),
      });
    };

    let worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    await waitUntil(() => created() >= 1, 300_000, 'the first batch created');
    await crash(worker, 'first batch created');
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    const pollsBefore = polls();
    await waitUntil(() => polls() >= pollsBefore + 2, 300_000, 'a batch polled after the restart');
    await crash(worker, 'batch polled');
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    final = (await run.handle.result()) as RunProgress;
    worker.crash();
  }, 600_000);
  afterAll(async () => env?.close());

  it('killed every worker twice with a batch in flight', () => {
    expect(kills).toHaveLength(2);
    expect(kills[0].batchesCreated).toBeGreaterThanOrEqual(1);
    // The provider had created the batch, the worker had not recorded its id: the next attempt found it by its tag.
    expect(kills[0].b0001Recorded).toBe(false);
    console.log('batch kill test:', JSON.stringify(kills));
  });

  it('uploaded each batch file once and created each batch once', async () => {
    const statuses = await readBatchStatuses(runDir);
    expect(statuses.map((s) => [s.name, s.status, s.completed])).toEqual([
      ['b0001', 'completed', 2],
      ['b0002', 'completed', 2],
    ]);
    expect(env.llm.log.filter((e) => e.route === 'POST /v1/files')).toHaveLength(2);
    expect(env.llm.log.filter((e) => e.route === 'POST /v1/batches')).toHaveLength(2);
  });

  it('answered every call once, all in batches, and lost none', () => {
    const answered = env.llm.log.filter((e) => e.answered);
    expect(answered.every((e) => e.batchId)).toBe(true);
    expect(new Set(answered.map((e) => e.callKey?.split('/')[1]))).toEqual(new Set(TASKS));
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
    expect(final.done).toBe(TASKS.length);
    expect(readTaskResult(runDir, '39604').testCaseResults).toEqual([1, 1, 1]);
    expect(readTaskResult(runDir, '79-7').testCaseResults).toEqual([1, 1, 1]);
    console.log(
      `batch kill test: ${answered.length} calls answered in ${new Set(answered.map((e) => e.batchId)).size} batches, ` +
        `cost $${final.costUsd.toFixed(8)}`,
    );
  });
});
