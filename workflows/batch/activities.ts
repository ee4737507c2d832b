import { proxyFailoverActivities } from '../run/failover';
import type { BatchActivities } from '../../activities';

/**
 * Uploading and creating a batch, and collecting its files: a few provider calls and file writes each, heartbeating
 * every 2 s, so a killed worker is noticed within the heartbeat timeout and the step is taken again elsewhere (it
 * finds what was done before it: nothing is uploaded, created or answered twice).
 */
export const batchSteps = proxyFailoverActivities<BatchActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '15s',
  retry: { maximumAttempts: 20, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '2 minutes' },
});

/** One look at a batch's status: an unreachable provider is asked again (a batch lasts up to 24 h). */
export const batchPoll = proxyFailoverActivities<BatchActivities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 1000, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});
