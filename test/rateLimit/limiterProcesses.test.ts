import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intervalOf, maxOverlap, maxStartsPerWindow } from '../helpers/requestIntervals';
import { startE2E, startInProcessWorkers, type E2EEnv } from '../helpers/e2e';
import type { WorkerSet } from '../../workers/createWorkers';

const LIMITS = { maxConcurrent: 2, requestsPerMinute: 4, windowMs: 3_000 };
const CALLS_EACH = 6;

/**
 * Two processes ("hosts") that share nothing but the Temporal server call one provider through the Temporal-held
 * limit, each trying all its calls at once. The scripted server's log (arrival times, durations) is the judge.
 */
describe('Temporal-held LLM rate limit across two processes', () => {
  let env: E2EEnv;
  let workers: WorkerSet;
  let running: Promise<void>;
  let calls: { key: string; start: number; end: number }[];

  beforeAll(async () => {
    env = await startE2E({ rules: [], fallback: 'ok', latencyMs: 400 }, { config: { recalc: { engine: 'none' } } });
    workers = await startInProcessWorkers(env, { recalc: false }); // runs the rate-limit workflow
    running = workers.run();
    const args = [
      env.temporal.address,
      env.temporal.namespace,
      env.config.temporal.taskQueue,
      env.llm.url,
      String(CALLS_EACH),
      JSON.stringify(LIMITS),
    ];
    const codes = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<number | null>((resolve) => {
            const child = spawn(
              process.execPath,
              ['--import', 'tsx', path.join(__dirname, 'limiterClient.ts'), ...args],
              { stdio: ['ignore', 'inherit', 'inherit'] },
            );
            child.once('exit', resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0]);
    calls = env.llm.log
      .filter((e) => e.status === 200)
      .map(intervalOf)
      .sort((a, b) => a.start - b.start);
  }, 180_000);
  afterAll(async () => {
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('answered every call once, from both processes', () => {
    expect(calls).toHaveLength(2 * CALLS_EACH);
    expect(new Set(calls.map((c) => c.key)).size).toBe(2 * CALLS_EACH);
    expect(new Set(calls.map((c) => c.key.split('/')[0])).size).toBe(2);
  });

  it('never had more than maxConcurrent calls at the provider at once', () => {
    expect(maxOverlap(calls)).toBeLessThanOrEqual(LIMITS.maxConcurrent);
  });

  it('never let more than requestsPerMinute calls arrive within one window, and was the binding limit', () => {
    const starts = calls.map((c) => c.start);
    expect(maxStartsPerWindow(starts, LIMITS.windowMs)).toBeLessThanOrEqual(LIMITS.requestsPerMinute);
    // 12 calls at 4 per window: at least two whole windows between the first and the last.
    expect(starts.at(-1)! - starts[0]).toBeGreaterThanOrEqual(2 * LIMITS.windowMs);
  });
});
