import { heartbeat } from '@temporalio/activity';

/** Heartbeats every few seconds while `work` runs, so a dead worker is detected by the heartbeat timeout. */
export async function withHeartbeat<T>(work: () => Promise<T>, everyMs = 5_000): Promise<T> {
  heartbeat();
  const timer = setInterval(() => heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
