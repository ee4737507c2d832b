import { proxyActivities } from '@temporalio/workflow';
import type { MainActivities } from '../../../activities';

/** Kernel-session executions: like one-shot executions, but a retry after a crash runs in a fresh kernel. */
export const sessions = proxyActivities<MainActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 3, initialInterval: '1s', nonRetryableErrorTypes: ['DatasetError'] },
});

/**
 * SheetCopilot stage activities. LLM stages heartbeat every 2 s, so a killed worker is noticed within 10 s and the
 * stage is retried elsewhere; earlier stages are not re-run (their results are in the workflow history).
 */
export const copilot = proxyActivities<MainActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10s',
  retry: { maximumAttempts: 3, initialInterval: '1s', backoffCoefficient: 2, nonRetryableErrorTypes: ['DatasetError', 'StageMissing'] },
});

export const cleanup = proxyActivities<MainActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 2 },
});
