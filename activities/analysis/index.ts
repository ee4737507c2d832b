import type { WorkerDeps } from '../deps';
import { conversationActivities } from './conversation';
import { legacyRequestActivities } from './legacy';
import { requestActivities } from './request';

/** The analysis agent's activities: a conversation's model and tool steps and event log, and the analysis suite's requests. */
export function analysisActivities(deps: WorkerDeps) {
  return { ...conversationActivities(deps), ...requestActivities(deps), ...legacyRequestActivities };
}

export type AnalysisActivities = ReturnType<typeof analysisActivities>;
