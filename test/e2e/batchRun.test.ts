import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, type RequestLogEntry } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import type { Config } from '../../config/schema';
import { costOf } from '../../lib/llm/cost';
import { readBatchStatuses } from '../../client/batchStatus';
import { batchProgressQuery, batchWorkflowId } from '../../contracts/batch';
import { SA } from '../../lib/temporal/searchAttributes';
import { checkRunPricing, planRun } from '../../client/createRun';
import { readTaskResult, serveWith, startBenchmarkRun, startE2E, type E2EEnv } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { copyInputReply } from '../helpers/copyInput';

const TASKS = ['39604', '79-7', '599-9', '57105'];
const PAIR = ['39604', '79-7'];
/** Priced by the bundled price library (gpt-4o-mini's entry), as a real run's model would be. */
const MODEL = 'gpt-4o-mini';
/** The same price; the scripted provider refuses batches for it. */
const REFUSED_MODEL = 'gpt-4o-mini-2024-07-18';
const DROP_RUN = 'batch-drop';
/** Its batch: 39604's line expires, 79-7's line fails with a 500 (once: asked singly, it is answered). */
const EXPIRE_RUN = 'batch-expire';

/**
 * `run --batch` on dev20 single-round tasks against the scripted provider's files + batches API: the same run without
 * batches as the baseline; batches of at most 2 calls (a window long enough that only size sends one); a batch the
 * provider refuses; a batch whose output misses a line. Judged by the provider's request log.
 */
describe('run --batch on dev20 single-round tasks', () => {
  let env: E2EEnv;
  const finals: Record<string, RunProgress> = {};
  const runs: Record<string, { runDir: string; runId: string }> = {};

  beforeAll(async () => {
    env = await startE2E(
      {
        rules: [
          { match: { callKey: new RegExp(`^${EXPIRE_RUN}/79-7/`) }, fault: { kind: 'server_error' }, times: 1 },
          ...Object.values(DEV20_SOLUTIONS),
        ],
        fallback: copyInputReply,
        batch: {
          delayMs: 1_500,
          rejectModels: /^gpt-4o-mini-2024/,
          dropLines: new RegExp(`^${DROP_RUN}/79-7/`),
          expireLines: new RegExp(`^${EXPIRE_RUN}/39604/`),
        },
      },
      {
        config: {
          llm: { model: MODEL, batch: { maxRequests: 2, windowMs: 600_000, pollIntervalMs: 500 } },
          run: { concurrency: 4 },
        },
      },
    );
    const refused: Config = { ...env.config, llm: { ...env.config.llm, model: REFUSED_MODEL } };
    const started = {
      plain: await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS, runId: 'plain' }),
      batch: await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS, runId: 'batch', batch: true }),
      refused: await startBenchmarkRun(env, {
        dataset: DEV20,
        tasks: PAIR,
        runId: 'batch-refused',
        batch: true,
        config: refused,
      }),
      drop: await startBenchmarkRun(env, { dataset: DEV20, tasks: PAIR, runId: DROP_RUN, batch: true }),
      expire: await startBenchmarkRun(env, { dataset: DEV20, tasks: PAIR, runId: EXPIRE_RUN, batch: true }),
    };
    const serving = await serveWith(env);
    try {
      for (const [name, run] of Object.entries(started)) {
        finals[name] = (await run.handle.result()) as RunProgress;
        runs[name] = run;
      }
    } finally {
      await serving.stop();
    }
  }, 600_000);
  afterAll(async () => env?.close());

  const ofRun = (runId: string) => (e: RequestLogEntry) => e.callKey?.startsWith(`${runId}/`) ?? false;
  const verdicts = (run: string, tasks: string[]) =>
    tasks.map((t) => readTaskResult(runs[run].runDir, t).testCaseResults);

  it('sends the calls of 4 tasks in 2 batches of at most 2, and no single request', async () => {
    const log = env.llm.log.filter(ofRun('batch'));
    expect(log.filter((e) => e.batchId && e.answered)).toHaveLength(TASKS.length);
    expect(log.filter((e) => !e.batchId)).toHaveLength(0);
    expect(new Set(log.map((e) => e.batchId)).size).toBe(2);
    const statuses = await readBatchStatuses(runs.batch.runDir);
    expect(statuses.map((s) => [s.name, s.status, s.calls, s.completed])).toEqual([
      ['b0001', 'completed', 2, 2],
      ['b0002', 'completed', 2, 2],
    ]);
    expect(env.llm.log.filter((e) => e.route === 'POST /v1/batches').length).toBeGreaterThanOrEqual(2);
  });

  it(
    'shows each batch in Temporal: its id in the memo, its status as BenchStatus, its progress by query',
    { timeout: 60_000 },
    async () => {
      const [first] = await readBatchStatuses(runs.batch.runDir);
      const handle = env.client.workflow.getHandle(batchWorkflowId('batch', 'b0001'));
      const described = await handle.describe();
      expect(described.type).toBe('llmBatch');
      expect(described.memo).toMatchObject({ batchId: first.batchId, calls: 2, answered: 2, single: 0 });
      expect(described.typedSearchAttributes.get(SA.status)).toBe('batch:completed');
      expect(described.typedSearchAttributes.get(SA.runId)).toBe('batch');
      const serving = await serveWith(env); // a query is answered by a worker
      try {
        expect(await handle.query(batchProgressQuery)).toMatchObject({ batchId: first.batchId, status: 'completed' });
      } finally {
        await serving.stop();
      }
    },
  );

  it('costs half of the same run without batches, and gives identical verdicts', () => {
    expect(finals.plain.done).toBe(TASKS.length);
    expect(finals.batch.done).toBe(TASKS.length);
    expect(finals.plain.costUsd).toBeGreaterThan(0);
    expect(finals.batch.costUsd).toBeCloseTo(finals.plain.costUsd / 2, 10);
    expect(verdicts('batch', TASKS)).toEqual(verdicts('plain', TASKS));
    expect(verdicts('batch', TASKS).slice(0, 2)).toEqual([
      [1, 1, 1],
      [1, 1, 1],
    ]);
    console.log(
      `dev20 batch: ${TASKS.length} tasks in 2 batches, cost $${finals.batch.costUsd} vs $${finals.plain.costUsd} without batches`,
    );
    for (const t of TASKS)
      expect(readTaskResult(runs.batch.runDir, t).costUsd).toBeCloseTo(
        readTaskResult(runs.plain.runDir, t).costUsd / 2,
        12,
      );
  });

  it('a batch the provider refuses: its calls asked singly at the full price, the refusal recorded with its reason', async () => {
    const log = env.llm.log.filter(ofRun('batch-refused'));
    expect(log.filter((e) => e.batchId && e.answered)).toHaveLength(0);
    expect(log.filter((e) => !e.batchId && e.answered)).toHaveLength(PAIR.length);
    expect(finals.refused.done).toBe(PAIR.length);
    expect(verdicts('refused', PAIR)).toEqual(verdicts('plain', PAIR));
    // Its prompts name its own output folder (`single_<model>`), so its tokens are its own: priced in full.
    const fullPrice = PAIR.reduce(
      (sum, t) => sum + costOf(readTaskResult(runs.refused.runDir, t).usage, REFUSED_MODEL, {}),
      0,
    );
    expect(fullPrice).toBeGreaterThan(0);
    expect(finals.refused.costUsd).toBeCloseTo(fullPrice, 12);
    const [status] = await readBatchStatuses(runs.refused.runDir);
    expect(status.status).toBe('failed');
    expect(status.errors[0]).toMatch(/line 1: model_not_found: The model 'gpt-4o-mini-2024-07-18' does not exist/);
    const marker = readdirJson(path.join(runs.refused.runDir, 'batches', 'single'));
    expect(marker[0].reason).toMatch(/was rejected by the provider: line 1: model_not_found/);
  });

  it('a batch output missing a line: that call alone asked singly, every call paid once', () => {
    const log = env.llm.log.filter(ofRun(DROP_RUN));
    expect(log.filter((e) => e.batchId && e.answered).map((e) => e.callKey?.split('/')[1])).toEqual(['39604']);
    expect(log.filter((e) => !e.batchId && e.answered).map((e) => e.callKey?.split('/')[1])).toEqual(['79-7']);
    expect(verdicts('drop', PAIR)).toEqual(verdicts('plain', PAIR));
    const [first, second] = PAIR.map((t) => readTaskResult(runs.drop.runDir, t).costUsd);
    const [plainFirst, plainSecond] = PAIR.map((t) => readTaskResult(runs.plain.runDir, t).costUsd);
    expect(first).toBeCloseTo(plainFirst / 2, 12);
    expect(second).toBeCloseTo(plainSecond, 12);
    const marker = readdirJson(path.join(runs.drop.runDir, 'batches', 'single'));
    expect(marker.map((m) => m.reason)).toEqual([expect.stringMatching(/has no line for this call/)]);
  });

  it('an expired line and a failed line: both calls asked singly at the full price, the reasons recorded', async () => {
    const log = env.llm.log.filter(ofRun(EXPIRE_RUN));
    expect(log.filter((e) => e.batchId && e.answered)).toHaveLength(0);
    expect(log.filter((e) => e.batchId && e.status === 500).map((e) => e.callKey?.split('/')[1])).toEqual(['79-7']);
    expect(
      log
        .filter((e) => !e.batchId && e.answered)
        .map((e) => e.callKey?.split('/')[1])
        .sort(),
    ).toEqual([...PAIR].sort());
    expect(verdicts('expire', PAIR)).toEqual(verdicts('plain', PAIR));
    const [status] = await readBatchStatuses(runs.expire.runDir);
    expect([status.status, status.completed, status.failed]).toEqual(['expired', 0, 2]);
    const reasons = readdirJson(path.join(runs.expire.runDir, 'batches', 'single')).map((m) => m.reason);
    expect(reasons.sort()).toEqual([
      expect.stringMatching(/line failed: HTTP 500: The server had an error/),
      expect.stringMatching(/line failed: batch_expired: This request could not be executed before the completion/),
    ]);
    for (const t of PAIR)
      expect(readTaskResult(runs.expire.runDir, t).costUsd).toBeCloseTo(
        readTaskResult(runs.plain.runDir, t).costUsd,
        12,
      );
  });

  it('never answered a call twice, in batches and singly together', () => {
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  });

  it('a batch run on a model without a price and with a dollar budget is refused before it starts, naming the fix', async () => {
    const plan = await planRun({ datasetDir: DEV20, agent: 'single', taskIds: PAIR });
    const unpriced: Config = {
      ...env.config,
      llm: { ...env.config.llm, model: 'scripted-unpriced' },
      run: { ...env.config.run, budgetUsd: 1 },
    };
    await expect(checkRunPricing(unpriced, plan)).rejects.toThrow(/scripted-unpriced.*llm\.prices/s);
  });
});

function readdirJson(dir: string): { reason: string }[] {
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { reason: string });
}
