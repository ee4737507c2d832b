import { activityInfo, heartbeat } from '@temporalio/activity';

export interface HeartbeatOptions {
  /** Ride along with every heartbeat (the next attempt reads the last ones from `activityInfo().heartbeatDetails`). */
  details?: unknown;
  /** Interval between heartbeats; 5 s unless given (shorter under a short heartbeat timeout: heartbeatEvery). */
  everyMs?: number;
}

/**
 * `everyMs`, or a quarter of the activity's heartbeat timeout when that is shorter: a timeout cut short by the config's
 * failover settings still gets several heartbeats. The workflows' own timeouts (10 s and up) leave the usual intervals
 * as they were for every caller but SheetCopilot's 10 s stages (5 -> 2.5 s, which the SDK's 8 s throttle hides).
 */
export function heartbeatEvery(everyMs: number): number {
  const timeoutMs = activityInfo().heartbeatTimeoutMs;
  return timeoutMs ? Math.min(everyMs, timeoutMs / 4) : everyMs;
}

/**
 * Heartbeats at once and then every `everyMs` while `work` runs, so a dead worker is detected by the heartbeat timeout.
 * Options are named: a bare number cannot be taken for an interval when it is the details (or the reverse).
 */
export async function withHeartbeat<T>(work: () => Promise<T>, opts: HeartbeatOptions = {}): Promise<T> {
  const { details, everyMs = 5_000 } = opts;
  heartbeat(details);
  const timer = setInterval(() => heartbeat(details), heartbeatEvery(everyMs));
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
