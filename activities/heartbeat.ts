import { heartbeat } from '@temporalio/activity';

/**
 * Heartbeats every few seconds while `work` runs, so a dead worker is detected by the heartbeat timeout. `details` ride
 * along (the next attempt reads the last ones from `activityInfo().heartbeatDetails`).
 */
export async function withHeartbeat<T>(work: () => Promise<T>, details?: unknown, everyMs = 5_000): Promise<T> {
  heartbeat(details);
  const timer = setInterval(() => heartbeat(details), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
