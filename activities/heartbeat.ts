import { heartbeat } from '@temporalio/activity';

export interface HeartbeatOptions {
  /** Ride along with every heartbeat (the next attempt reads the last ones from `activityInfo().heartbeatDetails`). */
  details?: unknown;
  /** Interval between heartbeats; 5 s unless given. */
  everyMs?: number;
}

/**
 * Heartbeats at once and then every `everyMs` while `work` runs, so a dead worker is detected by the heartbeat timeout.
 * Options are named: a bare number cannot be taken for an interval when it is the details (or the reverse).
 */
export async function withHeartbeat<T>(work: () => Promise<T>, opts: HeartbeatOptions = {}): Promise<T> {
  const { details, everyMs = 5_000 } = opts;
  heartbeat(details);
  const timer = setInterval(() => heartbeat(details), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
