import type { Config } from '../../config/schema';

type FailoverSettings = Config['temporal']['failover'];

/**
 * The config's failover settings as a workflow input carries them (contracts/failover.ts): undefined when none is set,
 * so a run started without them has the same input as before they existed.
 */
export function failoverInput(config: Config): FailoverSettings | undefined {
  const { heartbeatTimeoutMs, workflowTaskTimeoutMs } = config.temporal.failover;
  if (heartbeatTimeoutMs === undefined && workflowTaskTimeoutMs === undefined) return undefined;
  return { heartbeatTimeoutMs, workflowTaskTimeoutMs };
}

/** The start options of a workflow the client starts: its workflow task timeout, when the config sets one. */
export function failoverStartOptions(config: Config): { workflowTaskTimeout?: number } {
  const ms = config.temporal.failover.workflowTaskTimeoutMs;
  return ms === undefined ? {} : { workflowTaskTimeout: ms };
}

/**
 * A worker's heartbeat throttle when heartbeat timeouts are capped: the SDK sends a heartbeat at most every 0.8 × the
 * timeout, which would leave a short timeout little slack; every second instead. Unset: the SDK's throttle.
 */
export function failoverWorkerOptions(config: Config): { maxHeartbeatThrottleInterval?: number } {
  return config.temporal.failover.heartbeatTimeoutMs === undefined ? {} : { maxHeartbeatThrottleInterval: 1_000 };
}
