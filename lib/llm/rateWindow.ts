/**
 * The state of one provider's shared rate limit: the calls holding a slot (leases) and the requests and tokens started
 * within the sliding window. Pure and deterministic (no clock of its own, no I/O), so the rate-limit workflow can hold
 * it and carry it over continue-as-new.
 */
export interface SharedRateLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  maxConcurrent?: number;
  /** The sliding window; 60 s unless a test shortens it. */
  windowMs?: number;
}

export interface PermitRequest {
  /** Unique per call attempt: a repeated request with the same id gets the same permit. */
  id: string;
  tokens: number;
  /** A lease older than this is dropped (its holder died without releasing). */
  leaseMs: number;
  /** The caller's limits; the latest caller's limits apply to everyone. */
  limits: SharedRateLimits;
}

interface Lease {
  id: string;
  expiresAt: number;
}

interface Spend {
  id: string;
  at: number;
  tokens: number;
}

export interface RateWindowState {
  leases: Lease[];
  window: Spend[];
  limits: SharedRateLimits;
}

export type Grant = { granted: true; grantedAt: number } | { granted: false; waitMs: number };

/** How long a caller blocked on concurrency waits before asking again (a release is not announced to waiters). */
const CONCURRENCY_RETRY_MS = 200;
/**
 * A request counts against the window for this much longer than the window: the time from the grant to its arrival at
 * the provider varies (a busy worker, the network), and it is the provider's count that must stay within the limit.
 */
export const ARRIVAL_MARGIN_MS = 1_000;

export class RateWindow {
  private state: RateWindowState;

  constructor(state?: RateWindowState) {
    this.state = state ?? { leases: [], window: [], limits: {} };
  }

  get snapshot(): RateWindowState {
    return this.state;
  }

  /** 0 when the request fits now; otherwise how long to wait before asking again. */
  waitMs(req: PermitRequest, now: number): number {
    this.prune(now, req.limits);
    if (this.state.leases.some((l) => l.id === req.id)) return 0;
    const { maxConcurrent, requestsPerMinute, tokensPerMinute } = req.limits;
    const window = [...this.state.window].sort((a, b) => a.at - b.at);
    let wait = 0;
    if (maxConcurrent !== undefined && this.state.leases.length >= maxConcurrent) wait = CONCURRENCY_RETRY_MS;
    if (requestsPerMinute !== undefined && window.length >= requestsPerMinute) {
      wait = Math.max(wait, this.expiry(window[window.length - requestsPerMinute], now));
    }
    const used = window.reduce((sum, s) => sum + s.tokens, 0);
    // A request bigger than the whole allowance may still go alone, or it would wait forever.
    if (tokensPerMinute !== undefined && used > 0 && used + req.tokens > tokensPerMinute) {
      let left = used;
      for (const spend of window) {
        left -= spend.tokens;
        if (left + req.tokens <= tokensPerMinute || left === 0) {
          wait = Math.max(wait, this.expiry(spend, now));
          break;
        }
      }
    }
    return wait;
  }

  /** Grants the request if it fits now (idempotent per request id). */
  take(req: PermitRequest, now: number): Grant {
    const wait = this.waitMs(req, now);
    if (wait > 0) return { granted: false, waitMs: wait };
    const held = this.state.window.find((s) => s.id === req.id);
    if (this.state.leases.some((l) => l.id === req.id) && held) return { granted: true, grantedAt: held.at };
    this.state.leases.push({ id: req.id, expiresAt: now + req.leaseMs });
    this.state.window.push({ id: req.id, at: now, tokens: req.tokens });
    return { granted: true, grantedAt: now };
  }

  /** Frees the slot; `tokens` (the real usage, 0 for an unbilled failure) replaces the estimate. */
  release(id: string, tokens?: number): void {
    this.state.leases = this.state.leases.filter((l) => l.id !== id);
    const spend = this.state.window.find((s) => s.id === id);
    if (spend && tokens !== undefined) spend.tokens = tokens;
  }

  /** Nothing held and nothing in the window: the limit has no memory worth keeping. */
  idle(now: number): boolean {
    this.prune(now, this.state.limits);
    return !this.state.leases.length && !this.state.window.length;
  }

  private prune(now: number, limits: SharedRateLimits): void {
    this.state.limits = limits;
    const windowMs = (limits.windowMs ?? 60_000) + ARRIVAL_MARGIN_MS;
    this.state.leases = this.state.leases.filter((l) => l.expiresAt > now);
    this.state.window = this.state.window.filter((s) => now - s.at < windowMs);
  }

  private expiry(spend: Spend, now: number): number {
    return Math.max(1, spend.at + (this.state.limits.windowMs ?? 60_000) + ARRIVAL_MARGIN_MS - now);
  }
}
