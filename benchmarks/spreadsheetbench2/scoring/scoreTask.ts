/** evaluation.py's `process_single_item` and the result file's totals (`evaluation`), in the official JSON shape. */
import path from 'node:path';
import { pyRound } from '../../workbook/pyNumber';
import type { V2Task } from '../dataset';
import { compareWorkbooksWithRegression, type CellCounts, type WorkbookComparison } from './compareWorkbooks';

export interface V2Score {
  id: number | string;
  error_message: string;
  regression_accuracy: number;
  modification_accuracy: number;
  accuracy: number;
  interaction_turns: number;
}

export interface V2Result {
  total_tests: number;
  missing_outputs: number;
  regression_accuracy: number;
  modification_accuracy: number;
  accuracy: number;
  interaction_turns_stats: { average: number; maximum: number; minimum: number };
  scores: V2Score[];
}

const ratio = (c: CellCounts) => (c.total ? pyRound(c.correct / c.total, 4) : 0.0);

/** Debugging tasks only: `Color` in the input path adds font colours, `Embedded` compares formulas. */
export function compareModeOf(task: V2Task) {
  const debugging = task.category.includes('Debugging');
  return {
    withFontColour: debugging && task.spreadsheet_path.includes('Color'),
    withFormula: debugging && task.spreadsheet_path.includes('Embedded'),
  };
}

/** The workbooks a task is scored on: its input and answer (or their recalculated copies) and the output. */
export interface V2TaskFiles {
  input: string;
  answer: string;
  output: string;
}

/** The dataset's own files and `<outputsDir>/<id>_output.xlsx`. */
export function datasetFilesOf(task: V2Task, outputsDir: string): V2TaskFiles {
  return {
    input: path.join(task.categoryDir, task.spreadsheet_path),
    answer: path.join(task.categoryDir, task.golden_response_path),
    output: path.join(outputsDir, `${String(task.id)}_output.xlsx`),
  };
}

export interface V2TaskScore {
  score: V2Score;
  /** Its output (or input) does not exist. */
  missing: boolean;
  /** The cells compared and those that differ (empty when the workbooks could not be read). */
  comparison: WorkbookComparison;
}

const NO_COMPARISON: WorkbookComparison = {
  isCorrect: false,
  errorMessage: '',
  regression: { correct: 0, total: 0 },
  modification: { correct: 0, total: 0 },
  differences: [],
  omittedDifferences: 0,
};

/** One task's score on the given files, as `process_single_item` computes it. */
export async function scoreV2Files(task: V2Task, files: V2TaskFiles): Promise<V2TaskScore> {
  let comparison: WorkbookComparison;
  try {
    comparison = await compareWorkbooksWithRegression(files, task.answer_position, compareModeOf(task));
  } catch (err) {
    comparison = { ...NO_COMPARISON, errorMessage: (err as Error).message };
  }
  const ok = comparison.isCorrect;
  let reg = ratio(comparison.regression);
  const mod = ratio(comparison.modification);
  if (reg >= 0.998) reg = 1.0;
  return {
    score: {
      id: task.id,
      error_message: ok ? '' : comparison.errorMessage,
      regression_accuracy: reg,
      modification_accuracy: mod,
      accuracy: reg === 1.0 && mod === 1.0 ? 1.0 : 0.0,
      // The official tool counts a trajectory's model calls; `eval` scores outputs without one (0 keeps the file's
      // shape), and a run sets the episode's calls (activities/spreadsheetbench2/record.ts).
      interaction_turns: 0,
    },
    missing: !ok && comparison.errorMessage.includes('not exist'),
    comparison,
  };
}

/** One task's score from `<outputsDir>/<id>_output.xlsx`; `missing` when its output (or input) does not exist. */
export async function scoreV2Task(task: V2Task, outputsDir: string): Promise<V2TaskScore> {
  return scoreV2Files(task, datasetFilesOf(task, outputsDir));
}

const avg = (xs: number[]) => (xs.length ? pyRound(xs.reduce((a, b) => a + b, 0) / xs.length, 4) : 0.0);

/** The totals of `evaluation()`; outputs that do not exist are left out of the two cell accuracies. */
export function v2Result(scores: V2Score[], missingOutputs: number): V2Result {
  const present = scores.filter((s) => !s.error_message.includes('not exist'));
  const turns = scores.map((s) => s.interaction_turns);
  return {
    total_tests: scores.length,
    missing_outputs: missingOutputs,
    regression_accuracy: avg(present.map((s) => s.regression_accuracy)),
    modification_accuracy: avg(present.map((s) => s.modification_accuracy)),
    accuracy: avg(scores.map((s) => s.accuracy)),
    interaction_turns_stats: {
      average: turns.length ? pyRound(turns.reduce((a, b) => a + b, 0) / turns.length, 2) : 0,
      maximum: turns.length ? Math.max(...turns) : 0,
      minimum: turns.length ? Math.min(...turns) : 0,
    },
    scores,
  };
}

const FLOAT_KEYS = /^(\s*"(?:regression_accuracy|modification_accuracy|accuracy|average)": )(-?\d+)(,?)$/gm;

/** The result as Python's `json.dump(indent=4, ensure_ascii=False)` writes it (floats keep their `.0`). */
export function v2ResultJson(result: V2Result): string {
  return JSON.stringify(result, null, 4).replace(FLOAT_KEYS, '$1$2.0$3');
}
