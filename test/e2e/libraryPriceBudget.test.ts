import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressQuery, setBudgetUpdate, type RunProgress } from '../../contracts/run';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { startBenchmarkRun, startE2E, startInProcessWorkers, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { copyInputReply } from '../helpers/copyInput';
import type { WorkerSet } from '../../workers/createWorkers';

const TASKS = ['39604', '79-7', '599-9', '57105', '17251', '230-16'];
/** OpenAI's list price of gpt-4o-mini (USD per million tokens), written here by hand to check the library's. */
const LIST = { input: 0.15, cachedInput: 0.075, output: 0.6 };
/** Every reply reports this many prompt tokens as read from the provider's cache (dev20 prompts are 480+ tokens). */
const CACHED = 256;
/**
 * About two calls' worth (a dev20 call costs $0.00006–0.00012 at this price, measured), so the cap is reached while
 * tasks are still to start.
 */
const CAP_USD = 0.00015;
const CONCURRENCY = 2;
const MAX_CALL_USD = (1_200 * LIST.input + 100 * LIST.output) / 1e6;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What OpenAI would bill for the calls of a run, at the list price above. */
function listPriceOf(p: RunProgress): number {
  const { inputTokens, outputTokens } = p.usage;
  const cached = CACHED * p.llmCalls;
  return ((inputTokens - cached) * LIST.input + cached * LIST.cachedInput + outputTokens * LIST.output) / 1e6;
}

/**
 * No `llm.prices` at all: the model is priced by the bundled price library only, and the dollar budget stops the run
 * where it says.
 */
describe('a dollar budget on a model priced only by the price library', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let workers: WorkerSet;
  let running: Promise<void>;
  let atPause: RunProgress;
  let answeredAtPause: number;
  let final: RunProgress;

  beforeAll(async () => {
    env = await startE2E(
      {
        rules: [],
        fallback: (r: ScriptedRequest) => ({ text: copyInputReply(r), cachedTokens: CACHED }),
        latencyMs: 300,
      },
      {
        config: {
          run: { concurrency: CONCURRENCY, budgetUsd: CAP_USD },
          llm: { model: 'gpt-4o-mini' },
          recalc: { engine: 'none' },
        },
      },
    );
    expect(env.config.llm.prices).toEqual({});
    run = await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS });
    workers = await startInProcessWorkers(env);
    running = workers.run();
    const query = () => run.handle.query(progressQuery);
    atPause = await until(query, (p) => p.paused && p.reservedUsd === 0, 120_000);
    answeredAtPause = env.llm.log.filter((e) => e.answered).length;
    await run.handle.executeUpdate(setBudgetUpdate, { args: [{ usd: 1 }] });
    final = (await run.handle.result()) as RunProgress;
  }, 240_000);
  afterAll(async () => {
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('pauses once the library-priced spend reaches the cap, within the calls in flight', () => {
    console.log(
      `cap $${CAP_USD}: paused at $${atPause.costUsd.toFixed(8)} after ${atPause.llmCalls} calls ` +
        `(list price of those calls $${listPriceOf(atPause).toFixed(8)}); final $${final.costUsd.toFixed(8)} for ` +
        `${final.llmCalls} calls, ${final.usage.inputTokens} in (${CACHED * final.llmCalls} cached) / ${final.usage.outputTokens} out`,
    );
    expect(atPause.paused).toBe(true);
    expect(atPause.pauseReason).toMatch(/budget/);
    expect(atPause.costUsd).toBeGreaterThanOrEqual(CAP_USD);
    expect(atPause.costUsd).toBeLessThanOrEqual(CAP_USD + CONCURRENCY * MAX_CALL_USD);
    expect(answeredAtPause).toBeLessThan(TASKS.length);
    expect(atPause.done).toBeLessThan(TASKS.length);
  });

  it("counts every call at OpenAI's list price, cached prompt tokens at the cached rate", () => {
    expect(atPause.costUsd).toBeCloseTo(listPriceOf(atPause), 12);
    expect(final.done).toBe(TASKS.length);
    expect(final.llmCalls).toBe(TASKS.length);
    expect(final.costUsd).toBeCloseTo(listPriceOf(final), 12);
    // Not the full input price: the cached tokens were billed at half.
    const uncachedPrice = (final.usage.inputTokens * LIST.input + final.usage.outputTokens * LIST.output) / 1e6;
    expect(final.costUsd).toBeLessThan(uncachedPrice);
  });
});
