import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileRateLimiter } from '../../lib/llm';

interface Held {
  start: number;
  end: number;
  pid: number;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rate-limit-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const worker = path.join(__dirname, 'rateLimiterWorker.ts');
type WorkerArgs = {
  count: number;
  holdMs: number;
  tokens: number;
  maxConcurrent?: number;
  tokensPerMinute?: number;
  windowMs?: number;
};

function startWorker(name: string, a: WorkerArgs): { child: ChildProcess; out: string } {
  const out = path.join(dir, `${name}.json`);
  const args = [
    dir,
    out,
    a.count,
    a.holdMs,
    a.tokens,
    a.maxConcurrent ?? 0,
    a.tokensPerMinute ?? 0,
    a.windowMs ?? 0,
  ].map(String);
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { child, out };
}

async function runTwoWorkers(a: WorkerArgs): Promise<Held[]> {
  const workers = [startWorker('a', a), startWorker('b', a)];
  const codes = await Promise.all(workers.map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
  expect(codes).toEqual([0, 0]);
  const held = await Promise.all(workers.map(async ({ out }) => JSON.parse(await readFile(out, 'utf8')) as Held[]));
  return held.flat();
}

function maxOverlap(held: Held[]): number {
  const events = held
    .flatMap((h) => [[h.start, 1] as const, [h.end, -1] as const])
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let max = 0;
  for (const [, delta] of events) max = Math.max(max, (now += delta));
  return max;
}

describe('FileRateLimiter across two processes', () => {
  it('never lets more than maxConcurrent requests run at once, and does use all slots', async () => {
    const held = await runTwoWorkers({ count: 5, holdMs: 120, tokens: 1, maxConcurrent: 2 });
    expect(held).toHaveLength(10);
    expect(new Set(held.map((h) => h.pid)).size).toBe(2);
    expect(maxOverlap(held)).toBe(2);
  });

  it('keeps the tokens started within any window under tokensPerMinute', async () => {
    const windowMs = 1_500;
    const held = await runTwoWorkers({ count: 4, holdMs: 10, tokens: 300, tokensPerMinute: 1_000, windowMs });
    const starts = held.map((h) => h.start).sort((a, b) => a - b); // grant times, as the limiter counts them
    const perWindow = starts.map((t) => starts.filter((s) => s > t - windowMs && s <= t).length * 300);
    expect(Math.max(...perWindow)).toBeLessThanOrEqual(1_000);
    // 8 requests of 300 tokens at 3 per window need at least two further windows.
    expect(starts[7] - starts[0]).toBeGreaterThanOrEqual(2 * windowMs);
  });

  it('frees the slot of a process killed with -9 while holding it', async () => {
    const { child } = startWorker('crashed', { count: 1, holdMs: -1, tokens: 1, maxConcurrent: 1 });
    await new Promise<void>((resolve) => createInterface({ input: child.stdout! }).once('line', () => resolve()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const limiter = new FileRateLimiter({ dir, maxConcurrent: 1 });
    expect((await limiter.snapshot()).inFlight).toBe(1);
    child.kill('SIGKILL');
    await exited;
    const permit = await limiter.acquire(1, AbortSignal.timeout(5_000));
    expect((await limiter.snapshot()).inFlight).toBe(1);
    await permit.release();
    expect((await limiter.snapshot()).inFlight).toBe(0);
  });

  it('gives up waiting when the signal aborts', async () => {
    const limiter = new FileRateLimiter({ dir, maxConcurrent: 1 });
    const permit = await limiter.acquire(1);
    await expect(limiter.acquire(1, AbortSignal.timeout(200))).rejects.toThrow();
    await permit.release();
  });
});
