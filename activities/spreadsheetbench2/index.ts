import type { WorkerDeps } from '../deps';
import { scoreAndRecord, type RecordInput } from './record';
import { collectCheckedVoteOutput, prepareCheckedVote } from './checkedVote';
import {
  collectOutput,
  prepareEpisode,
  removeWorkDir,
  scaffoldModelCall,
  scaffoldShellStep,
  type ScaffoldStepInput,
} from './episode';
import { judgeCharts, prepareChartJudgment, recordChartJudgeFailure, type ChartJudgeInput } from './chartJudging';
import type { EpisodeRecord } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import type { V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';

/**
 * A SpreadsheetBench 2 task's activities: the scaffold's steps, checked_vote's adapter (its own activities are
 * SpreadsheetBench's), the output collected, scored and recorded.
 */
export function spreadsheetBench2Activities(deps: WorkerDeps) {
  return {
    prepareV2Episode: (input: { runDir: string; taskId: string; copies?: V2DatasetCopies }) =>
      prepareEpisode(deps, input.runDir, input.taskId, input.copies),
    v2ScaffoldModelCall: (input: ScaffoldStepInput & { callKey: string }) => scaffoldModelCall(deps, input),
    v2ScaffoldShellStep: (input: ScaffoldStepInput) => scaffoldShellStep(deps, input),
    collectV2Output: (input: { runDir: string; taskId: string }) => collectOutput(deps, input.runDir, input.taskId),
    removeV2WorkDir: (input: { runDir: string; taskId: string }) => removeWorkDir(deps, input.runDir, input.taskId),
    scoreAndRecordV2Task: (input: RecordInput & { episode?: EpisodeRecord }) => scoreAndRecord(input),
    prepareV2CheckedVote: (input: { runDir: string; taskId: string; copies?: V2DatasetCopies }) =>
      prepareCheckedVote(input),
    collectV2CheckedVoteOutput: (input: { runDir: string; taskId: string }) => collectCheckedVoteOutput(input),
    // Visualization judging (chartJudging.ts).
    prepareV2ChartJudgment: (input: ChartJudgeInput) => prepareChartJudgment(deps, input),
    judgeV2Charts: (input: ChartJudgeInput & { callKey: string; round?: number; group?: number }) =>
      judgeCharts(deps, input),
    recordV2ChartJudgeFailure: (input: ChartJudgeInput & { callKey: string; message: string }) =>
      recordChartJudgeFailure(deps, input),
  };
}

export type SpreadsheetBench2Activities = ReturnType<typeof spreadsheetBench2Activities>;
