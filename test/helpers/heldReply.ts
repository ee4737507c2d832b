import { setTimeout as sleep } from 'node:timers/promises';
import type { ReplyFn, ScriptedRequest } from '../../lib/scriptedLlm';

/** A scripted reply held for `holdMs` after its request arrives, and whether one has arrived yet. */
export interface HeldReply {
  reply: ReplyFn;
  /** True once a request reached the scripted server (the kill a test wants in flight can land now). */
  arrived(): boolean;
}

/**
 * A reply that answers `source` after `holdMs`, telling the test when its request arrived: a test that kills a worker
 * "while the call is in flight" waits for that instead of sleeping a guessed time (too short under load). A client gone
 * during the hold is not answered (the server checks before it writes), as with a rule's `delayMs`.
 */
export function heldReply(source: string | ReplyFn, holdMs: number): HeldReply {
  let arrivals = 0;
  return {
    reply: async (request: ScriptedRequest) => {
      arrivals++;
      await sleep(holdMs);
      return typeof source === 'string' ? source : source(request);
    },
    arrived: () => arrivals > 0,
  };
}
