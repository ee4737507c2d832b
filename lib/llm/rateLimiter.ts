import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { isProcessAlive, withFileMutex } from './fileMutex';

/**
 * A limit on concurrent requests and tokens per minute for one provider (one API key), shared by every worker
 * process on this host that points at the same `dir`.
 *
 * Design: the whole state — live leases and the tokens started within the sliding window — is one small JSON file
 * (`state.json`), read-modified-written under a file mutex (`state.lock`, created with O_EXCL) and replaced
 * atomically (temp file + rename). A lease of a process that died (same host, pid gone) or older than `leaseTtlMs`
 * is dropped, so a kill -9 never leaks a slot. Callers that cannot go yet poll with jitter, outside the mutex.
 *
 * Across hosts a file lock does not help: there the limit is held by a Temporal workflow (rateLimit/, config
 * `llm.sharedLimits`), with this limiter as a per-host extra.
 */
export interface RateLimitSettings {
  dir: string;
  maxConcurrent?: number;
  tokensPerMinute?: number;
  /** The token window; 60 s unless a test shortens it. */
  windowMs?: number;
  /** A lease older than this is considered abandoned (backstop for hung holders and other hosts' leases). */
  leaseTtlMs?: number;
  pollMs?: number;
}

export interface RatePermit {
  /** When the limiter granted this permit (the time its tokens count from). */
  grantedAt: number;
  /** Frees the slot; `actualTokens` replaces the estimate in the token window (0 for a call that was not billed). */
  release(actualTokens?: number): Promise<void>;
}

/** Anything that hands out permits for one call: this file limiter (per host) or the Temporal-wide one (rateLimit/). */
export interface RateLimiter {
  acquire(estimatedTokens: number, signal?: AbortSignal): Promise<RatePermit>;
}

const leaseSchema = z.object({ id: z.string(), pid: z.number(), host: z.string(), at: z.number() });
const spendSchema = z.object({ id: z.string(), at: z.number(), tokens: z.number() });
const stateSchema = z.object({ leases: z.array(leaseSchema), window: z.array(spendSchema) });
type LimiterState = z.infer<typeof stateSchema>;
type Lease = z.infer<typeof leaseSchema>;

export class FileRateLimiter implements RateLimiter {
  private readonly windowMs: number;
  private readonly leaseTtlMs: number;
  private readonly pollMs: number;

  constructor(private readonly settings: RateLimitSettings) {
    this.windowMs = settings.windowMs ?? 60_000;
    this.leaseTtlMs = settings.leaseTtlMs ?? 15 * 60_000;
    this.pollMs = settings.pollMs ?? 50;
  }

  /** Waits until one more request of about `estimatedTokens` fits both limits, then holds a slot for it. */
  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<RatePermit> {
    await mkdir(this.settings.dir, { recursive: true });
    for (;;) {
      signal?.throwIfAborted();
      const outcome = await this.update((state, now) => this.tryTake(state, now, estimatedTokens));
      if ('id' in outcome) return { grantedAt: outcome.at, release: (actual) => this.release(outcome.id, actual) };
      await sleep(Math.min(outcome.waitMs, this.pollMs * 4) * (0.5 + Math.random()), undefined, { signal });
    }
  }

  /** Current leases and window tokens, for tests and status displays. */
  async snapshot(): Promise<{ inFlight: number; windowTokens: number }> {
    const state = pruned(await this.read(), Date.now(), this.windowMs, this.leaseTtlMs);
    return { inFlight: state.leases.length, windowTokens: sumTokens(state) };
  }

  private tryTake(state: LimiterState, now: number, tokens: number): Lease | { waitMs: number } {
    const { maxConcurrent, tokensPerMinute } = this.settings;
    if (maxConcurrent !== undefined && state.leases.length >= maxConcurrent) return { waitMs: this.pollMs };
    const used = sumTokens(state);
    // A request bigger than the whole allowance may still go alone, or it would wait forever.
    if (tokensPerMinute !== undefined && used > 0 && used + tokens > tokensPerMinute) {
      return { waitMs: this.msUntilFits(state, now, tokens, tokensPerMinute) };
    }
    const lease: Lease = { id: randomBytes(6).toString('hex'), pid: process.pid, host: hostname(), at: now };
    state.leases.push(lease);
    state.window.push({ id: lease.id, at: now, tokens });
    return lease;
  }

  private msUntilFits(state: LimiterState, now: number, tokens: number, limit: number): number {
    let used = sumTokens(state);
    for (const spend of [...state.window].sort((a, b) => a.at - b.at)) {
      used -= spend.tokens;
      if (used + tokens <= limit || used === 0) return Math.max(1, spend.at + this.windowMs - now);
    }
    return this.pollMs;
  }

  private async release(id: string, actualTokens?: number): Promise<void> {
    await this.update((state) => {
      state.leases = state.leases.filter((l) => l.id !== id);
      const spend = state.window.find((s) => s.id === id);
      if (spend && actualTokens !== undefined) spend.tokens = actualTokens;
    });
  }

  private async update<T>(change: (state: LimiterState, now: number) => T): Promise<T> {
    return withFileMutex(path.join(this.settings.dir, 'state.lock'), async () => {
      const now = Date.now();
      const state = pruned(await this.read(), now, this.windowMs, this.leaseTtlMs);
      const result = change(state, now);
      const file = this.statePath();
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(state));
      await rename(tmp, file);
      return result;
    });
  }

  private async read(): Promise<LimiterState> {
    try {
      const parsed = stateSchema.safeParse(JSON.parse(await readFile(this.statePath(), 'utf8')));
      return parsed.success ? parsed.data : emptyState();
    } catch {
      return emptyState();
    }
  }

  private statePath(): string {
    return path.join(this.settings.dir, 'state.json');
  }
}

function pruned(state: LimiterState, now: number, windowMs: number, leaseTtlMs: number): LimiterState {
  const here = hostname();
  const live = (l: Lease) => now - l.at < leaseTtlMs && (l.host !== here || isProcessAlive(l.pid));
  return { leases: state.leases.filter(live), window: state.window.filter((s) => now - s.at < windowMs) };
}

function sumTokens(state: LimiterState): number {
  return state.window.reduce((sum, s) => sum + s.tokens, 0);
}

function emptyState(): LimiterState {
  return { leases: [], window: [] };
}
