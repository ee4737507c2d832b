/** `sheetbench eval` on a v2 dataset folder: every task scored as evaluation.py does, one result per category and overall. */
import { loadV2Dataset, v2TaskProblems, type V2Task } from './dataset';
import { RecalculationError, type RecalculatedCopies } from './recalculatedCopies';
import { datasetFilesOf, scoreV2Files, v2Result, type V2Result, type V2TaskFiles } from './scoring/scoreTask';

export interface V2Evaluation {
  /** The official result file over all tasks given. */
  result: V2Result;
  /** The official totals per category (evaluation.py writes one file per category). */
  categories: Record<string, Omit<V2Result, 'scores'>>;
  /** Dataset problems found (a missing file, an answer position naming no sheet), each naming its task. */
  problems: string[];
}

export interface EvaluateOptions {
  /** Score recalculated copies of the input, answer and output (as the release asks); the user's files are not written. */
  recalculated?: RecalculatedCopies;
}

/** The files a task is scored on: recalculated copies where asked (a workbook that fails is scored as it is, named). */
async function filesFor(
  task: V2Task,
  outputsDir: string,
  opts: EvaluateOptions,
  problems: string[],
): Promise<V2TaskFiles> {
  const files = datasetFilesOf(task, outputsDir);
  const copies = opts.recalculated;
  if (!copies) return files;
  const copy = async (what: keyof V2TaskFiles) => {
    try {
      return await copies.of(files[what]);
    } catch (err) {
      // A missing file is scored (and named) by the scorer itself; an engine failure is named here.
      if (err instanceof RecalculationError)
        problems.push(`task ${String(task.id)} (${task.category}): ${what} scored unrecalculated: ${err.message}`);
      return files[what];
    }
  };
  return { input: await copy('input'), answer: await copy('answer'), output: await copy('output') };
}

async function resultOf(tasks: V2Task[], outputsDir: string, opts: EvaluateOptions, problems: string[]) {
  const scores = [];
  let missing = 0;
  for (const task of tasks) {
    const { score, missing: isMissing } = await scoreV2Files(task, await filesFor(task, outputsDir, opts, problems));
    scores.push(score);
    if (isMissing) missing++;
  }
  return v2Result(scores, missing);
}

/** Scores `<outputsDir>/<id>_output.xlsx` for every task of the dataset; null when the folder is no v2 dataset. */
export async function evaluateV2Outputs(
  datasetDir: string,
  outputsDir: string,
  opts: EvaluateOptions = {},
): Promise<V2Evaluation | null> {
  const tasks = await loadV2Dataset(datasetDir);
  if (!tasks) return null;
  const problems: string[] = [];
  for (const task of tasks) problems.push(...(await v2TaskProblems(task)));
  const result = await resultOf(tasks, outputsDir, opts, problems);
  return { result, categories: categoryTotals(tasks, result), problems };
}

/** The official totals of each category's tasks. */
export function categoryTotals(tasks: V2Task[], result: V2Result): V2Evaluation['categories'] {
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
  return categories;
}
