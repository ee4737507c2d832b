import { llmActivities } from './llm/modelCall';
import { executeActivities } from './spreadsheetbench/execute';
import { scoreActivities } from './spreadsheetbench/score';
import { taskActivities } from './spreadsheetbench/task';
import { runActivities } from './run/index';
import { recalcActivities } from './recalc/index';
import { sessionActivities } from './spreadsheetbench/sessions';
import { agentStageActivities } from './spreadsheetbench/sheetcopilot';
import { dsbenchActivities } from './dsbench/index';
import { conversationActivities } from './analysis/conversation';
import { analysisActivities } from './analysis/request';
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
