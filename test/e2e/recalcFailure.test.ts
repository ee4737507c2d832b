import { Worker } from '@temporalio/worker';
import { ApplicationFailure } from '@temporalio/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../contracts/run';
import { connectWorkerConnection } from '../../workers/connection';
import { copyInputReply } from '../helpers/copyInput';
import {
  readTaskResult,
  startBenchmarkRun,
  startE2E,
  startInProcessWorkers,
  type E2EEnv,
  type StartedRun,
} from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';

/**
 * A recalculation that fails for good (in the chaos suite: its worker killed at every attempt) used to fail the task
 * workflow, which then recorded no result. The task is now recorded with the cause, and the run finishes.
 */
describe('a task whose recalculation fails after its retries', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  let recalcCalls = 0;

  beforeAll(async () => {
    env = await startE2E({ rules: [], fallback: copyInputReply });
    run = await startBenchmarkRun(env, { dataset: SAMPLE, tasks: ['1001'] });
    const main = await startInProcessWorkers(env, { recalc: false });
    const connection = await connectWorkerConnection({
      address: env.temporal.address,
      namespace: env.temporal.namespace,
    });
    // Stands for a recalc queue whose every attempt is lost: the last failure the workflow sees.
    const recalc = await Worker.create({
      connection,
      namespace: env.temporal.namespace,
      taskQueue: env.config.temporal.recalcTaskQueue,
      activities: {
        async recalcWorkbooks() {
          recalcCalls++;
          throw ApplicationFailure.nonRetryable('soffice died on every attempt', 'RecalcLost');
        },
      },
    });
    const serving = Promise.all([main.run(), recalc.run()]);
    try {
      final = (await run.handle.result()) as RunProgress;
    } finally {
      await main.shutdown();
      recalc.shutdown();
      await serving;
      await connection.close();
    }
  }, 120_000);
  afterAll(async () => env?.close());

  it('records the task with class recalc and the cause, scored on the workbooks as they stand', () => {
    expect(recalcCalls).toBe(1);
    const result = readTaskResult(run.runDir, '1001');
    expect(result.failure).toEqual({
      class: 'recalc',
      message: expect.stringContaining('recalculation failed: soffice died on every attempt'),
    });
    expect(result.testCaseResults).toHaveLength(3);
  });

  it('lets the run finish and count the task as failed', () => {
    expect(final.done).toBe(1);
    expect(final.failed).toBe(1);
  });
});
