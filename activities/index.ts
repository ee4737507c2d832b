import { llmActivities } from './llm';
import { executeActivities } from './execute';
import { scoreActivities } from './score';
import { taskActivities } from './task';
import { runActivities } from './run';
import { recalcActivities } from './recalc';
import { sessionActivities } from './sessions';
import { agentStageActivities } from './agentStages';
import { dsbenchActivities } from './dsbench';
import { conversationActivities } from './conversation';
import { analysisActivities } from './analysis';
import type { WorkerDeps } from './deps';

/** Activities of the main task queue (inference, execution, scoring, artifacts). */
export function createActivities(deps: WorkerDeps) {
  return {
    ...llmActivities(deps),
    ...executeActivities(deps),
    ...sessionActivities(deps),
    ...agentStageActivities(deps),
    ...dsbenchActivities(deps),
    ...conversationActivities(deps),
    ...analysisActivities(deps),
    ...scoreActivities,
    ...taskActivities,
    ...runActivities,
  };
}

export type MainActivities = ReturnType<typeof createActivities>;
export type RecalcActivities = ReturnType<typeof recalcActivities>;
export { recalcActivities };
export type { WorkerDeps };
