import { taskKey } from '../../../lib/runStore/taskRecord';
import { VISUALIZATION_CATEGORY } from '../dataset';
import { v2Run } from '../run/files';
import { readChartJudgment, REJUDGED_VERDICTS } from './chartJudgment';

/**
 * The Visualization tasks of a v2 run that `sheetbench rejudge` judges again: those without a verdict of a model
 * (unjudged, no judgment yet), with an unparseable reply or a failed call; with `all`, every Visualization task.
 */
export async function v2TasksToRejudge(runDir: string, all: boolean): Promise<string[]> {
  const run = await v2Run(runDir);
  const ids: string[] = [];
  for (const task of run.tasks) {
    if (task.category !== VISUALIZATION_CATEGORY) continue;
    const key = taskKey(task.id);
    const judgment = await readChartJudgment(runDir, key);
    if (all || !judgment || REJUDGED_VERDICTS.includes(judgment.verdict)) ids.push(key);
  }
  return ids;
}
