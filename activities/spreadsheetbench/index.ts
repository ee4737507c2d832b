import type { WorkerDeps } from '../deps';
import { checkedVoteActivities } from './checkedVote';
import { executeActivities } from './execute';
import { llmTurnActivities } from './llmTurn';
import { scoreActivities } from './score';
import { sessionActivities } from './sessions';
import { sheetCopilotActivities } from './sheetcopilot';
import { taskActivities } from './task';

/** A SpreadsheetBench task's activities: model turns, executions (one-shot and in a kernel session), SheetCopilot's stages, checked_vote's view, asks, checks and vote, scoring, records. */
export function spreadsheetActivities(deps: WorkerDeps) {
  return {
    ...llmTurnActivities(deps),
    ...executeActivities(deps),
    ...sessionActivities(deps),
    ...sheetCopilotActivities(deps),
    ...checkedVoteActivities(deps),
    ...scoreActivities,
    ...taskActivities,
  };
}

export type SpreadsheetActivities = ReturnType<typeof spreadsheetActivities>;
