import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, duplicatesAnsweredApartFromKills } from '../../lib/scriptedLlm';
import {
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  type StartedRun,
  FAST_FAILOVER,
} from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { copyInputReply } from '../helpers/copyInput';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes, type WorkerProcess } from '../helpers/workerProcess';
import type { RunProgress } from '../../contracts/run';

const durationMs = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(d?.seconds ?? 0) * 1000 + (d?.nanos ?? 0) / 1e6;

const TASKS = ['39604', '79-7', '599-9', '57105', '17251', '230-16', '54057', '38985'];

describe('a run survives worker crashes and Temporal server restarts', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  const crashes: number[] = [];

  beforeAll(async () => {
    env = await startE2E(
      { rules: Object.values(DEV20_SOLUTIONS), fallback: copyInputReply, latencyMs: 1_500 },
      // Restarted mid-run: a server of its own.
      { devServer: { own: true }, config: { ...FAST_FAILOVER, run: { concurrency: 3 } } },
    );
    run = await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS });
    const answered = () => env.llm.log.filter((e) => e.answered).length;

    // Crash 1 and 2: kill -9 the worker (its whole process group) while LLM calls and executions are in flight.
    let worker: WorkerProcess = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    for (const atAnswered of [2, 4]) {
      await waitUntil(() => answered() >= atAnswered, 120_000, `${atAnswered} answered LLM calls`);
      await new Promise((r) => setTimeout(r, 700));
      worker.crash();
      await worker.exited;
      crashes.push(answered());
      worker = spawnWorker(workerProcessEnv(env));
      await worker.ready;
    }
    // Then stop and restart the Temporal server (SQLite state) under the running worker.
    await waitUntil(() => answered() >= 6, 120_000, '6 answered LLM calls');
    await env.temporal.restart();
    final = (await run.handle.result()) as RunProgress;
    worker.crash();
  }, 420_000);
  afterAll(async () => env?.close());

  it('completed every task exactly once', () => {
    expect(crashes).toHaveLength(2);
    expect(final.done).toBe(TASKS.length);
    expect(final.failed).toBe(0); // a task whose killed activity was not taken up again ends failed
    const results = readdirSync(path.join(run.runDir, 'results')).sort();
    expect(results).toEqual(TASKS.map((t) => `${t}.json`).sort());
  });

  it('never had an LLM request answered twice for the same task stage, but for a reply in flight at a kill', () => {
    // A kill -9 in the instant between the server's write and the worker caching the reply loses a delivered reply; no
    // client avoids paying for that one again. Any other reply answered twice was lost by the worker: a bug.
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
    expect(duplicatesAnswered(env.llm.log).length).toBeLessThanOrEqual(crashes.length);
    // Every task's call got a reply.
    const generated = env.llm.log.filter((e) => e.status === 200);
    expect(new Set(generated.map((e) => e.callKey)).size).toBe(TASKS.length);
  });

  it("ran under the test's failover settings: heartbeat timeouts cut to 8 s, 5 s workflow tasks, in every task", async () => {
    const history = await env.client.workflow.getHandle(`${run.runId}/task/39604`).fetchHistory();
    const events = history.events ?? [];
    const started = events[0].workflowExecutionStartedEventAttributes!;
    expect(durationMs(started.workflowTaskTimeout)).toBe(5_000);
    const heartbeats = events
      .map((e) => e.activityTaskScheduledEventAttributes)
      .filter((a) => a?.heartbeatTimeout)
      .map((a) => durationMs(a!.heartbeatTimeout));
    expect(heartbeats.length).toBeGreaterThan(0);
    expect(new Set(heartbeats)).toEqual(new Set([8_000]));
  });

  it('still scored the solved tasks correctly', async () => {
    const evalJson = (
      await import(path.join(run.runDir, 'eval_single_scripted-model.json'), { with: { type: 'json' } })
    ).default as {
      id: unknown;
      test_case_results: number[];
    }[];
    expect(evalJson).toHaveLength(TASKS.length);
    expect(evalJson.find((e) => e.id === 39604)!.test_case_results).toEqual([1, 1, 1]);
    expect(evalJson.find((e) => e.id === '79-7')!.test_case_results).toEqual([1, 1, 1]);
  });
});
