import { describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { configSchema } from '../../config/schema';
import { failoverInput, failoverStartOptions, failoverWorkerOptions } from '../../lib/temporal/failover';
import { withFailover } from '../../workflows/run/failover';
import { EXECUTION, LLM_CALL, BOOKKEEPING } from '../../workflows/run/activityOptions';
import { heartbeatEvery } from '../../activities/heartbeat';

const failover = { heartbeatTimeoutMs: 8_000, workflowTaskTimeoutMs: 5_000 };

describe('failover settings: how soon a dead worker’s work moves elsewhere', () => {
  it('by default: nothing in the workflow input, the start options or the worker options (all as before)', () => {
    const config = configSchema.parse({});
    expect(failoverInput(config)).toBeUndefined();
    expect(failoverStartOptions(config)).toEqual({});
    expect(failoverWorkerOptions(config)).toEqual({});
  });

  it('when set: carried in the input, the workflow task timeout in the start options, heartbeats passed on within 1 s', () => {
    const config = configSchema.parse({ temporal: { failover } });
    expect(failoverInput(config)).toEqual(failover);
    expect(failoverStartOptions(config)).toEqual({ workflowTaskTimeout: 5_000 });
    expect(failoverWorkerOptions(config)).toEqual({ maxHeartbeatThrottleInterval: 1_000 });
  });

  it('refuses a heartbeat cap under 4 s (activities beat every 2 s) and a workflow task timeout over 120 s', () => {
    const paths = (temporal: unknown) =>
      configSchema.safeParse({ temporal }).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(paths({ failover: { heartbeatTimeoutMs: 3_000 } })).toEqual(['temporal.failover.heartbeatTimeoutMs']);
    expect(paths({ failover: { workflowTaskTimeoutMs: 121_000 } })).toEqual([
      'temporal.failover.workflowTaskTimeoutMs',
    ]);
  });

  it("an execution without failover settings schedules the workflows' own options, the same object", () => {
    expect(withFailover(LLM_CALL, undefined)).toBe(LLM_CALL);
    expect(withFailover(EXECUTION, {})).toBe(EXECUTION);
  });

  it('cuts a longer heartbeat timeout to the cap and keeps the rest of the options', () => {
    expect(withFailover(LLM_CALL, failover)).toEqual({ ...LLM_CALL, heartbeatTimeout: 8_000 });
    expect(withFailover({ ...EXECUTION, heartbeatTimeout: '5s' }, failover).heartbeatTimeout).toBe(5_000);
    // No heartbeat timeout: a dead worker is noticed by the start-to-close timeout, which the cap leaves alone.
    expect(withFailover(BOOKKEEPING, failover)).toBe(BOOKKEEPING);
  });

  it("activities beat every quarter of a short heartbeat timeout, and as before under the workflows' own", async () => {
    const every = (heartbeatTimeoutMs: number, everyMs: number) =>
      new MockActivityEnvironment({ heartbeatTimeoutMs }).run(async () => Promise.resolve(heartbeatEvery(everyMs)));
    expect(await every(8_000, 5_000)).toBe(2_000);
    expect(await every(8_000, 2_000)).toBe(2_000);
    expect(await every(20_000, 5_000)).toBe(5_000);
    expect(await every(60_000, 10_000)).toBe(10_000);
  });
});
