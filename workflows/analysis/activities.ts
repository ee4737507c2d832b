import { proxyFailoverActivities } from '../run/failover';
import type { AnalysisActivities } from '../../activities';
import { BOOKKEEPING, LLM_CALL } from '../run/activityOptions';

/** The analysis agent's activities, by the kind of work (options: workflows/run/activityOptions.ts). */
export const model = proxyFailoverActivities<AnalysisActivities>(LLM_CALL);

export const tools = proxyFailoverActivities<AnalysisActivities>({
  // A tool's own limit (execution timeout, download timeout) is far below this; heartbeats notice a dead worker.
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 3, initialInterval: '1s' },
});

export const bookkeeping = proxyFailoverActivities<AnalysisActivities>(BOOKKEEPING);

/** Waits on work another workflow does (a conversation's turn): long, heartbeating, so a lost worker is noticed. */
export const waiting = proxyFailoverActivities<AnalysisActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 5, initialInterval: '1s' },
});
