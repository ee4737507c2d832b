import type { ScriptedRequest, ScriptRule } from '../../lib/scriptedLlm';
import { copyInputReply } from './copyInput';

/**
 * Runs whose last task's spend request is held behind a reservation (test/e2e/budgetSettle.test.ts, and the
 * `budget` replay fixture of test/replay/recordHistories.ts). Each run has four dev20 tasks, two at a time: A
 * (expensive, answered at once), B (expensive, answered after a few seconds), C (started when A ends, reserved one
 * expensive call, answered late), D (the last task, started when B ends). D asks while the spend is 2X and C's
 * reservation X: 3X is past the cap, so D's request is held though the spend is not. What happens to it when C
 * settles is the point.
 */

/** $1 per million tokens: a call's cost is its token count in micro-dollars. */
export const HELD_PRICE = { inputPerMTok: 1, outputPerMTok: 1 };
/** Reasoning tokens that make a call "expensive": about $0.1, against $0.0005–0.0012 for a dev20 prompt and reply. */
const HEAVY = 100_000;
/** Two and a half expensive calls. */
export const HELD_CAP_USD = (2.5 * HEAVY) / 1e6;
export const HELD_CONCURRENCY = 2;

/**
 * C expensive: when it settles the spend (3X) is past the cap, and the run must pause. Tasks A, B, C, D in the dataset's
 * order, which is the order a run starts them in.
 */
export const PAUSES = ['57105', '18645', '17251', '59259'];
/** C cheap: when it settles the spend (2X and a bit) is under the cap, and D's request must be granted. */
export const GOES_ON = ['57232', '39604', '50066', '38985'];

/**
 * The order of one run's calls by events instead of delays: B is answered once C's request is at the model (C's
 * reservation is then in flight when D, started when B ends, asks), and C once the test opens it (when it has seen D's
 * request held). No machine is too slow for it, and no wait is longer than the run needs.
 */
export class HeldSpendOrder {
  private cAsked!: () => void;
  private readonly cAtModel = new Promise<void>((resolve) => (this.cAsked = resolve));
  private release!: () => void;
  private readonly cReleased = new Promise<void>((resolve) => (this.release = resolve));

  /** B's reply: waits for C's request. */
  async afterC(): Promise<void> {
    await this.cAtModel;
  }

  /** C's reply: says C asked, then waits until opened. */
  async holdC(): Promise<void> {
    this.cAsked();
    await this.cReleased;
  }

  /** Lets C's reply go (D's request was seen held, or the test gives up waiting). */
  openC(): void {
    this.release();
  }
}

/**
 * The rules of one run's tasks: A and B expensive, C expensive or cheap, D plain (the fallback); C answered late:
 * after fixed delays (B 4 s, C 25 s), or, given `order`, by its events.
 */
export function heldRequestRules([a, b, c]: string[], cHeavy: boolean, order?: HeldSpendOrder): ScriptRule[] {
  const reply = (heavy: boolean, before?: () => Promise<void>) => async (r: ScriptedRequest) => {
    await before?.();
    return { text: copyInputReply(r), ...(heavy ? { reasoningTokens: HEAVY } : {}) };
  };
  const task = (id: string) => ({ anyMessage: new RegExp(`spreadsheet/${id}/`) });
  if (order)
    return [
      { name: `A ${a}`, match: task(a), reply: reply(true) },
      { name: `B ${b}`, match: task(b), reply: reply(true, () => order.afterC()) },
      { name: `C ${c}`, match: task(c), reply: reply(cHeavy, () => order.holdC()) },
    ];
  return [
    { name: `A ${a}`, match: task(a), reply: reply(true) },
    { name: `B ${b}`, match: task(b), reply: reply(true), delayMs: 4_000 },
    { name: `C ${c}`, match: task(c), reply: reply(cHeavy), delayMs: 25_000 },
  ];
}
