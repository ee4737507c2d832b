import { proxyLocalActivities } from '@temporalio/workflow';
import { proxyFailoverActivities } from './failover';
import type { RunActivities } from '../../activities';
import { LOCAL_BOOKKEEPING, RUN_BOOKKEEPING, TASK_WATCH } from './activityOptions';

/** The run's own activities: its task ids page by page, and its benchmark's scoring once the last task is done. */
export const runBookkeeping = proxyFailoverActivities<RunActivities>(RUN_BOOKKEEPING);

/** A task's done summary sent to its run, from the task's last workflow task (workflows/run/runReport.ts). */
export const runReporting = proxyLocalActivities<RunActivities>(LOCAL_BOOKKEEPING);

/** Waits on tasks handed over by an earlier execution, for the one that ends without a result (workflows/run/handedOverTasks.ts). */
export const runWatching = proxyFailoverActivities<RunActivities>(TASK_WATCH);
