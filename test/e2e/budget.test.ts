import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressQuery, setBudgetUpdate, type RunProgress } from '../../contracts/run';
import { startBenchmarkRun, startE2E, startInProcessWorkers, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { copyInputReply } from '../helpers/copyInput';
import type { WorkerSet } from '../../workers/createWorkers';

const TASKS = ['39604', '79-7', '599-9', '57105', '17251', '230-16'];
const PRICE = { inputPerMTok: 1_000, outputPerMTok: 1_000 }; // $0.001 a token: a call costs about $0.5
const CAP_USD = 1.2;
const CONCURRENCY = 2;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('a run-wide dollar budget', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let workers: WorkerSet;
  let running: Promise<void>;
  let atPause: RunProgress;
  let answeredAtPause: number;
  let answeredLater: number;
  let final: RunProgress;
  let lowBudgetError: unknown;

  beforeAll(async () => {
    env = await startE2E(
      { rules: [], fallback: copyInputReply, latencyMs: 300 },
      {
        config: {
          run: { concurrency: CONCURRENCY, budgetUsd: CAP_USD },
          llm: { prices: { 'scripted-model': PRICE } },
          recalc: { engine: 'none' },
        },
      },
    );
    run = await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS });
    workers = await startInProcessWorkers(env);
    running = workers.run();
    const query = () => run.handle.query(progressQuery);
    atPause = await until(query, (p) => p.paused && p.reservedUsd === 0, 120_000);
    answeredAtPause = env.llm.log.filter((e) => e.answered).length;
    await new Promise((r) => setTimeout(r, 3_000));
    answeredLater = env.llm.log.filter((e) => e.answered).length;
    lowBudgetError = await run.handle.executeUpdate(setBudgetUpdate, { args: [{ usd: 0.01 }] }).then(
      () => null,
      (err: unknown) => err,
    );
    await run.handle.executeUpdate(setBudgetUpdate, { args: [{ usd: 1_000 }] });
    final = (await run.handle.result()) as RunProgress;
  }, 240_000);
  afterAll(async () => {
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('pauses (not fails) once the cap is reached, within the calls in flight', () => {
    expect(atPause.paused).toBe(true);
    expect(atPause.pauseReason).toMatch(/budget/);
    expect(atPause.costUsd).toBeGreaterThanOrEqual(CAP_USD);
    // Dev20 prompts here are 480–1,100 tokens: no call costs more than $1.2 at this price.
    expect(atPause.costUsd).toBeLessThanOrEqual(CAP_USD + CONCURRENCY * 1.2);
    expect(atPause.done).toBeLessThan(TASKS.length);
  });

  it('makes no further LLM calls while paused', () => {
    expect(answeredLater).toBe(answeredAtPause);
    expect(answeredAtPause).toBeLessThan(TASKS.length);
  });

  it('refuses a budget below what is spent', () => {
    const err = lowBudgetError as Error & { cause?: Error };
    expect(err?.message).toBe('Workflow Update failed');
    expect(err.cause?.message).toMatch(/not above what is already spent/);
  });

  it('finishes every task after the cap is raised, with all spend counted once', () => {
    expect(final.done).toBe(TASKS.length);
    expect(final.paused).toBe(false);
    expect(final.llmCalls).toBe(TASKS.length);
    const tokens = env.llm.log.filter((e) => e.answered).length;
    expect(tokens).toBe(TASKS.length);
    expect(final.costUsd).toBeCloseTo(((final.usage.inputTokens + final.usage.outputTokens) * 1_000) / 1e6, 6);
  });
});
