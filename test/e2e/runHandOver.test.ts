import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { devServerConfigSchema } from '../../config/schema';
import { workflowBundle } from '../../workers/workflowBundle';
import { readTaskResult, startBenchmarkRun, serveWith, startE2E, type E2EEnv } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { waitUntil } from '../helpers/wait';
import type { RunProgress } from '../../contracts/run';

type History = proto.temporal.api.history.v1.IHistory;
/** Its model call hangs: the task a test terminates (left out of the other test's run). */
const SLOW = '57105';

/**
 * A run reads its tasks' done summaries from their completion events, and hands the tasks still running over before it
 * continues as new (they signal their summary to its next execution). The server here suggests continue-as-new after
 * 60 history events, so a 20-task run continues as new several times with tasks in flight.
 */
describe('a run that continues as new with tasks in flight', () => {
  let env: E2EEnv;
  let serving: Awaited<ReturnType<typeof serveWith>> | undefined;

  beforeAll(async () => {
    env = await startE2E(
      {
        rules: [
          ...Object.values(DEV20_SOLUTIONS),
          {
            name: `slow-${SLOW}`,
            match: { anyMessage: new RegExp(`spreadsheet/${SLOW}/`) },
            reply: 'no code',
            delayMs: 120_000,
          },
        ],
        fallback: 'No code this time.',
      },
      {
        config: { recalc: { engine: 'none' }, run: { concurrency: 4 } },
        devServer: {
          tuning: devServerConfigSchema.parse({ dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 60 } }),
        },
      },
    );
    serving = await serveWith(env);
  }, 120_000);
  afterAll(async () => {
    await serving?.stop();
    await env?.close();
  });

  const histories = async (workflowId: string): Promise<History[]> => {
    const out: History[] = [];
    for await (const info of env.client.workflow.list({ query: `WorkflowId="${workflowId}"` }))
      out.push(await env.client.workflow.getHandle(workflowId, info.runId).fetchHistory());
    return out;
  };
  /** A lost summary leaves the run waiting forever: fail with that, not with the test's timeout. */
  const resultWithin = (run: { handle: { result(): Promise<unknown> } }, ms: number): Promise<RunProgress> =>
    Promise.race([
      run.handle.result() as Promise<RunProgress>,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`the run did not finish within ${ms} ms: a task's summary was lost`)),
          ms,
        ).unref(),
      ),
    ]);
  const signals = (h: History, name: string) =>
    (h.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === name).length;

  it('counts every task exactly once, whichever way its summary came', async () => {
    const ids = (JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as { id: unknown }[])
      .map((r) => String(r.id))
      .filter((id) => id !== SLOW);
    const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: ids });
    const final = await resultWithin(run, 90_000);
    expect(final.done).toBe(ids.length);
    expect(final.running).toBe(0);
    const results = ids.map((id) => readTaskResult(run.runDir, id));
    expect(final.passRateSoft * ids.length).toBeCloseTo(
      results.reduce((s, r) => s + r.soft, 0),
      6,
    );
    expect(final.failed).toBe(results.filter((r) => r.failure).length);

    const runs = await histories(run.runId);
    expect(runs.length, 'executions of the run').toBeGreaterThan(1);
    const tasks = await Promise.all(ids.map(async (id) => (await histories(`${run.runId}/task/${id}`))[0]));
    const handedOver = tasks.filter((h) => signals(h, 'handOver') > 0).length;
    expect(handedOver, 'tasks handed over to a next execution').toBeGreaterThan(0);
    expect(handedOver, 'tasks read by completion alone').toBeLessThan(ids.length);
    // Only handed-over tasks signal their summary; the others' reach the run as child-completion events.
    const doneSignals = runs.reduce((n, h) => n + signals(h, 'taskDone'), 0);
    expect(doneSignals).toBeGreaterThan(0);
    expect(doneSignals).toBeLessThanOrEqual(handedOver);

    // The hand-over path replays without a determinism error.
    const replays = Worker.runReplayHistories(
      { workflowBundle: await workflowBundle() },
      [...runs, ...tasks].map((history, i) => ({ workflowId: `h${i}`, history })),
    );
    for await (const r of replays) expect(r.error, r.workflowId).toBeUndefined();
  }, 300_000);

  it('counts a task whose workflow was terminated as failed and finishes', async () => {
    const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: ['39604', SLOW] });
    const slow = env.client.workflow.getHandle(`${run.runId}/task/${SLOW}`);
    await waitUntil(
      async () => (await slow.describe().catch(() => undefined))?.status.name === 'RUNNING',
      60_000,
      'the slow task to start',
    );
    await slow.terminate('test: a task workflow that ends without a result');
    const final = await resultWithin(run, 90_000);
    expect(final.done).toBe(2);
    expect(final.failed).toBe(1);
    // The other task was scored as usual (its formula has no cached value without recalculation: soft 0, no failure).
    expect(readTaskResult(run.runDir, '39604').failure).toBeUndefined();
  }, 300_000);

  it('counts a task terminated after it was handed over to a next execution as failed, and finishes', async () => {
    const others = (JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as { id: unknown }[])
      .map((r) => String(r.id))
      .filter((id) => id !== SLOW)
      .slice(0, 12);
    const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: [SLOW, ...others] });
    const slowId = `${run.runId}/task/${SLOW}`;
    // The slow task is still running when the run continues as new: it gets the hand-over, then it is terminated.
    await waitUntil(
      async () => {
        const [h] = await histories(slowId).catch(() => [] as History[]);
        return h !== undefined && signals(h, 'handOver') > 0;
      },
      120_000,
      'the slow task to be handed over to a next execution of the run',
    );
    await env.client.workflow.getHandle(slowId).terminate('test: a handed-over task that ends without a result');
    const final = await resultWithin(run, 90_000);
    expect(final.done).toBe(others.length + 1);
    expect(final.running).toBe(0);
    expect(final.failed).toBe(1 + others.filter((id) => readTaskResult(run.runDir, id).failure).length);
    expect((await histories(run.runId)).length, 'executions of the run').toBeGreaterThan(1);
  }, 300_000);
});
