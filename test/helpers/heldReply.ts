import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReplyFn, ScriptedRequest } from '../../lib/scriptedLlm';

/** A scripted reply held for `holdMs` after its request arrives, and whether one has arrived yet. */
export interface HeldReply {
  reply: ReplyFn;
  /** True once a request reached the scripted server (the kill a test wants in flight can land now). */
  arrived(): boolean;
  /**
   * After the kill: the held calls go once the server has seen their client gone (within their hold), so they are
   * logged unanswered; later calls are answered at once instead of being held too.
   */
  release(): void;
}

/**
 * A reply that answers `source` after `holdMs`, telling the test when its request arrived: a test that kills a worker
 * "while the call is in flight" waits for that instead of sleeping a guessed time (too short under load). A client gone
 * during the hold is not answered (the server checks before it writes), as with a rule's `delayMs`.
 */
export function heldReply(source: string | ReplyFn, holdMs: number): HeldReply {
  let arrivals = 0;
  let released = false;
  let letGo: () => void = () => undefined;
  const freed = new Promise<void>((resolve) => (letGo = resolve));
  return {
    reply: async (request: ScriptedRequest) => {
      arrivals++;
      if (!released) {
        const held = sleep(holdMs).then(() => 'held' as const);
        if ((await Promise.race([held, freed.then(() => 'freed' as const)])) === 'freed')
          await clientGone(request, held);
      }
      return typeof source === 'string' ? source : source(request);
    },
    arrived: () => arrivals > 0,
    release: () => {
      released = true;
      letGo();
    },
  };
}

/** Until the server has seen the request's client go, or the hold ends. */
async function clientGone(request: ScriptedRequest, holdEnds: Promise<unknown>): Promise<void> {
  const signal = request.clientGone;
  if (signal && !signal.aborted) await Promise.race([once(signal, 'abort'), holdEnds]);
}
