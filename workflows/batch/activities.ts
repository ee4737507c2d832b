import { proxyActivities } from '@temporalio/workflow';
import type { BatchActivities } from '../../activities';

/** Uploading and creating a batch, and collecting its files: a few provider calls and file writes each. */
export const batchSteps = proxyActivities<BatchActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 20, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '2 minutes' },
});

/** One look at a batch's status: an unreachable provider is asked again (a batch lasts up to 24 h). */
export const batchPoll = proxyActivities<BatchActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 1000, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});
