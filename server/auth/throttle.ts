/**
 * Slows down guessing: after `freeTries` wrong tokens (or forged cookies) from one client address, each further attempt
 * from it must wait 1 s, 2 s, 4 s… (at most `maxDelayMs`) after the last failure, and is refused with 429 until then.
 * A success, or `forgetMs` without failures, clears the client's count. Only failures are counted: a missing
 * credential is the normal first visit, not a guess.
 */
export class FailureThrottle {
  private readonly clients = new Map<string, { failures: number; last: number }>();

  constructor(
    private readonly opts: {
      freeTries?: number;
      baseDelayMs?: number;
      maxDelayMs?: number;
      forgetMs?: number;
      maxClients?: number;
      now?: () => number;
    } = {},
  ) {}

  /** Milliseconds the client must still wait before its next attempt (0: it may try now). */
  waitMs(client: string): number {
    const entry = this.entry(client);
    if (!entry) return 0;
    const over = entry.failures - (this.opts.freeTries ?? 5);
    if (over < 0) return 0;
    const delay = Math.min((this.opts.baseDelayMs ?? 1000) * 2 ** over, this.opts.maxDelayMs ?? 60_000);
    return Math.max(0, entry.last + delay - this.now());
  }

  fail(client: string): void {
    const entry = this.entry(client) ?? { failures: 0, last: 0 };
    this.clients.delete(client); // re-insert: the map's order is the eviction order
    this.clients.set(client, { failures: entry.failures + 1, last: this.now() });
    const max = this.opts.maxClients ?? 10_000;
    while (this.clients.size > max) this.clients.delete(this.clients.keys().next().value!);
  }

  succeed(client: string): void {
    this.clients.delete(client);
  }

  private entry(client: string) {
    const entry = this.clients.get(client);
    if (entry && this.now() - entry.last > (this.opts.forgetMs ?? 15 * 60_000)) {
      this.clients.delete(client);
      return undefined;
    }
    return entry;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
