import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScriptedRequest } from '../../lib/scriptedLlm';

/**
 * A scripted judge whose calls wait at a gate until the test opens it, for a kill "while the judge's call is in
 * flight". A call held at the gate whose client is gone by then (the killed worker) replies only once the scripted
 * server has seen the connection close (bounded), so it is logged unanswered (499) whatever order the kill's exit and
 * the close reach the server in. Calls made after the gate is opened are answered at once.
 */
export class HeldJudge {
  /** A call reached the gate. */
  arrived = false;
  private gate: Promise<void> | undefined;
  private release: () => void = () => undefined;

  constructor(private readonly verdict: (request: ScriptedRequest) => string) {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  /** The scripted reply: waits at the gate while it is closed. */
  readonly reply = async (request: ScriptedRequest): Promise<string> => {
    this.arrived = true;
    const held = this.gate;
    await held;
    if (held && request.clientGone && !request.clientGone.aborted)
      await Promise.race([once(request.clientGone, 'abort'), sleep(30_000)]);
    return this.verdict(request);
  };

  /** Lets the held calls go, and every later call through at once. */
  open(): void {
    this.gate = undefined;
    this.release();
  }
}
