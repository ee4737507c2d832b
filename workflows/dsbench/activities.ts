import { proxyActivities } from '@temporalio/workflow';
import type { DsbenchActivities } from '../../activities';
import { BOOKKEEPING, EXECUTION, LLM_CALL } from '../run/activityOptions';

/** A DSBench question's activities, by the kind of work (options: workflows/run/activityOptions.ts). */
export const llm = proxyActivities<DsbenchActivities>(LLM_CALL);
export const execution = proxyActivities<DsbenchActivities>(EXECUTION);
export const bookkeeping = proxyActivities<DsbenchActivities>(BOOKKEEPING);
