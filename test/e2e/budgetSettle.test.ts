import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressQuery, setBudgetUpdate, type RunProgress } from '../../contracts/run';
import { serveWith, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { copyInputReply } from '../helpers/copyInput';
import {
  GOES_ON,
  HELD_CAP_USD,
  HELD_CONCURRENCY,
  HELD_PRICE,
  HeldSpendOrder,
  heldRequestRules,
  PAUSES,
} from '../helpers/heldSpendRequest';

interface Observed {
  /** Some progress showed D's request held behind C's reservation, the run neither paused nor over its budget. */
  heldBehindReservation: boolean;
  /** The first progress after C's task ended (done = 3) where the held request was acted on: paused, or granted. */
  afterSettle: RunProgress;
}

/**
 * Polls the run's progress until C's settle has been acted on (paused or granted), or the time is up; C is answered
 * once D's request is seen held (or, should it never be, when this returns: A, B and D ended, D never held).
 */
async function observe(run: StartedRun, order: HeldSpendOrder, timeoutMs: number): Promise<Observed> {
  const deadline = Date.now() + timeoutMs;
  let held = false;
  try {
    for (;;) {
      const p = await run.handle.query(progressQuery);
      if (p.waitingCalls === 1 && !p.paused && p.reservedUsd > 0 && p.costUsd < HELD_CAP_USD) {
        held = true;
        order.openC();
      }
      if (p.done >= 3 && (p.paused || p.waitingCalls === 0)) return { heldBehindReservation: held, afterSettle: p };
      if (Date.now() > deadline)
        throw new Error(`the run neither paused nor granted the held request: ${JSON.stringify(p)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    order.openC();
  }
}

/**
 * A spend request held only because calls in flight reserved the rest of the budget is looked at again when those
 * calls settle ('benchmark-run-v10'): before, a run whose last task's request was held hung, neither paused nor going
 * on, since only a new task start checked the budget (test/helpers/heldSpendRequest.ts: the set-up).
 */
describe('a spend request held behind a reservation, when the reservation settles', () => {
  let env: E2EEnv;
  let serving: { stop(): Promise<void> };
  let pausesSeen: Observed;
  let goesOnSeen: Observed;
  let pausesFinal: RunProgress;
  let goesOnFinal: RunProgress;
  const pausesOrder = new HeldSpendOrder();
  const goesOnOrder = new HeldSpendOrder();

  beforeAll(async () => {
    env = await startE2E(
      {
        rules: [...heldRequestRules(PAUSES, true, pausesOrder), ...heldRequestRules(GOES_ON, false, goesOnOrder)],
        fallback: copyInputReply,
      },
      {
        config: {
          run: { concurrency: HELD_CONCURRENCY, budgetUsd: HELD_CAP_USD },
          llm: { prices: { 'scripted-model': HELD_PRICE } },
          recalc: { engine: 'none' },
        },
      },
    );
    const pauses = await startBenchmarkRun(env, { dataset: DEV20, tasks: PAUSES });
    const goesOn = await startBenchmarkRun(env, { dataset: DEV20, tasks: GOES_ON });
    serving = await serveWith(env);
    [pausesSeen, goesOnSeen] = await Promise.all([
      observe(pauses, pausesOrder, 150_000),
      observe(goesOn, goesOnOrder, 150_000),
    ]);
    goesOnFinal = (await goesOn.handle.result()) as RunProgress;
    await pauses.handle.executeUpdate(setBudgetUpdate, { args: [{ usd: 1 }] });
    pausesFinal = (await pauses.handle.result()) as RunProgress;
  }, 300_000);
  afterAll(async () => {
    pausesOrder.openC();
    goesOnOrder.openC();
    await serving?.stop();
    await env?.close();
  });

  it('holds the last task’s request while the spend is under the cap but spend + reserved is not', () => {
    expect(pausesSeen.heldBehindReservation).toBe(true);
    expect(goesOnSeen.heldBehindReservation).toBe(true);
  });

  it('pauses the run when the settled spend reached the cap, and finishes it once the cap is raised', () => {
    const p = pausesSeen.afterSettle;
    console.log(
      `held then paused at $${p.costUsd.toFixed(6)} (cap $${HELD_CAP_USD}), ${p.done} done, ${p.waitingCalls} waiting`,
    );
    expect(p.paused).toBe(true);
    expect(p.pauseReason).toMatch(/budget reached/);
    expect(p.costUsd).toBeGreaterThanOrEqual(HELD_CAP_USD);
    expect(p.done).toBe(3);
    expect(p.waitingCalls).toBe(1);
    expect(pausesFinal.done).toBe(PAUSES.length);
    expect(pausesFinal.llmCalls).toBe(PAUSES.length);
    expect(pausesFinal.paused).toBe(false);
  });

  it('grants the held request when the settled spend is under the cap, and the run finishes unpaused', () => {
    const p = goesOnSeen.afterSettle;
    console.log(`held then granted at $${p.costUsd.toFixed(6)} (cap $${HELD_CAP_USD}), ${p.done} done`);
    expect(p.paused).toBe(false);
    expect(p.costUsd).toBeLessThan(HELD_CAP_USD);
    expect(goesOnFinal.done).toBe(GOES_ON.length);
    expect(goesOnFinal.llmCalls).toBe(GOES_ON.length);
    expect(goesOnFinal.paused).toBe(false);
    expect(goesOnFinal.pauseReason).toBeUndefined();
  });
});
