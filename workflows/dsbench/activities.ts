import { proxyFailoverActivities } from '../run/failover';
import type { DsbenchActivities } from '../../activities';
import { BOOKKEEPING, EXECUTION, LLM_CALL } from '../run/activityOptions';

/** A DSBench question's activities, by the kind of work (options: workflows/run/activityOptions.ts). */
export const llm = proxyFailoverActivities<DsbenchActivities>(LLM_CALL);
export const execution = proxyFailoverActivities<DsbenchActivities>(EXECUTION);
export const bookkeeping = proxyFailoverActivities<DsbenchActivities>(BOOKKEEPING);
