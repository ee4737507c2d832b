/** `sheetbench eval` on a v2 dataset folder: every task scored as evaluation.py does, one result per category and overall. */
import { loadV2Dataset, v2TaskProblems, type V2Task } from './dataset';
import { scoreV2Task, v2Result, type V2Result } from './scoring/scoreTask';

export interface V2Evaluation {
  /** The official result file over all tasks given. */
  result: V2Result;
  /** The official totals per category (evaluation.py writes one file per category). */
  categories: Record<string, Omit<V2Result, 'scores'>>;
  /** Dataset problems found (a missing file, an answer position naming no sheet), each naming its task. */
  problems: string[];
}

async function resultOf(tasks: V2Task[], outputsDir: string): Promise<V2Result> {
  const scores = [];
  let missing = 0;
  for (const task of tasks) {
    const { score, missing: isMissing } = await scoreV2Task(task, outputsDir);
    scores.push(score);
    if (isMissing) missing++;
  }
  return v2Result(scores, missing);
}

/** Scores `<outputsDir>/<id>_output.xlsx` for every task of the dataset; null when the folder is no v2 dataset. */
export async function evaluateV2Outputs(datasetDir: string, outputsDir: string): Promise<V2Evaluation | null> {
  const tasks = await loadV2Dataset(datasetDir);
  if (!tasks) return null;
  const problems: string[] = [];
  for (const task of tasks) problems.push(...(await v2TaskProblems(task)));
  const result = await resultOf(tasks, outputsDir);
  const categories: V2Evaluation['categories'] = {};
  for (const name of [...new Set(tasks.map((t) => t.category))]) {
    const { scores: _scores, ...totals } = v2Result(
      result.scores.filter((_, i) => tasks[i].category === name),
      0,
    );
    const missing = result.scores.filter(
      (s, i) => tasks[i].category === name && s.error_message.includes('not exist'),
    ).length;
    categories[name] = { ...totals, missing_outputs: missing };
  }
  return { result, categories, problems };
}
