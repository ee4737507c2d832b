import { proxyFailoverActivities } from '../run/failover';
import type { RecalcActivities, SpreadsheetBench2Activities, V2RecalcActivities } from '../../activities';
import { BOOKKEEPING, EXECUTION, LLM_CALL } from '../run/activityOptions';

/** A v2 task's activities, by the kind of work (options: workflows/run/activityOptions.ts). */
export const llm = proxyFailoverActivities<SpreadsheetBench2Activities>(LLM_CALL);
/** A shell step: its 60 s command, the sandbox's start and the syntax check fit well within EXECUTION's 5 minutes. */
export const execution = proxyFailoverActivities<SpreadsheetBench2Activities>(EXECUTION);
export const bookkeeping = proxyFailoverActivities<SpreadsheetBench2Activities>(BOOKKEEPING);

/** The output's recalculation on the recalc queue, as the release asks before scoring (open_spreadsheet.py). */
export function recalcOn(taskQueue: string) {
  return proxyFailoverActivities<RecalcActivities>({
    taskQueue,
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: '20s',
    retry: { maximumAttempts: 10, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '30s' },
  });
}

/**
 * The task's input and answer recalculated once per content and placed in the run folder, on the recalc queue (two
 * workbooks; found in the cache they take no engine time at all).
 */
export function datasetRecalcOn(taskQueue: string) {
  return proxyFailoverActivities<V2RecalcActivities>({
    taskQueue,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '20s',
    retry: { maximumAttempts: 10, initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '30s' },
  });
}
