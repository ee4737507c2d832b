import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyInputReply } from '../helpers/copyInput';
import { readTaskResult, runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';

/** Per-class retry limits hold across real Temporal retries (the counts travel in heartbeat details). */
describe('a provider that keeps failing with 500', () => {
  let env: E2EEnv;
  let run: StartedRun;

  beforeAll(async () => {
    env = await startE2E(
      { rules: [], fallback: copyInputReply },
      { config: { recalc: { engine: 'none' }, llm: { retryLimits: { provider_5xx: 2 } } } },
    );
    env.llm.inject({ kind: 'server_error' }, 10);
    run = await startBenchmarkRun(env, { dataset: SAMPLE, tasks: ['1001'] });
    await runToEnd(env, run);
  }, 120_000);
  afterAll(async () => env?.close());

  it('is asked exactly as often as its class limit allows, then the task fails with the cause', () => {
    expect(env.llm.log.map((e) => e.status)).toEqual([500, 500]);
    const result = readTaskResult(run.runDir, '1001');
    expect(result.failure?.class).toBe('llm');
    expect(result.failure?.message).toContain('LLM call failed (provider_5xx, failure 2 of 2)');
  });
});
