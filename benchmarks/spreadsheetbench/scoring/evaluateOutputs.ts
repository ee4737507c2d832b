/** Scores a whole outputs folder (`{N}_{id}_output.xlsx`) against a dataset, in dataset order. */
import path from 'node:path';
import { loadDataset, selectSheetTasks } from '../dataset';
import type { OfficialTaskScore, ScoringMode, TestCaseVerdict } from './types';
import { outputFileName, scoreTask } from './scoreTask';
import { summarize, type ScoreSummary } from './summary';

export interface EvaluateOutputsInput {
  datasetDir: string;
  outputsDir: string;
  mode?: ScoringMode;
  /** Task ids (as strings) to score; all when absent. */
  tasks?: string[];
}

export interface TaskVerdicts {
  id: number | string;
  verdicts: TestCaseVerdict[];
}

export interface EvaluateOutputsResult {
  results: OfficialTaskScore[];
  verdicts: TaskVerdicts[];
  summary: ScoreSummary;
}

export async function evaluateOutputs(input: EvaluateOutputsInput): Promise<EvaluateOutputsResult> {
  const tasks = selectSheetTasks(await loadDataset(input.datasetDir), { ids: input.tasks });
  const results: OfficialTaskScore[] = [];
  const verdicts: TaskVerdicts[] = [];
  for (const task of tasks) {
    const scored = await scoreTask({
      task,
      datasetDir: input.datasetDir,
      outputPathFor: (n) => path.join(input.outputsDir, outputFileName(task, n)),
      mode: input.mode,
    });
    results.push(scored.official);
    verdicts.push({ id: task.id, verdicts: scored.verdicts });
  }
  return { results, verdicts, summary: summarize(results) };
}
