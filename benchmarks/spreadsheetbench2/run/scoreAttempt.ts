/**
 * Scores one task of a run: the dataset's problems first (a missing input or answer, an answer position naming no
 * sheet: a dataset failure naming the task), then the official comparison of the output with the answer, whose cell
 * diffs are written beside the task's records. An unreadable or missing output scores 0, as evaluation.py scores it,
 * with a reason that names the task; nothing here stops the other tasks of the run.
 */
import path from 'node:path';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import type { TaskResult } from '../../../contracts/taskResult';
import { v2TaskProblems, type V2Task } from '../dataset';
import { scoreV2Files, type V2TaskFiles, type V2TaskScore } from '../scoring/scoreTask';
import { cellDiffsOf } from './cellDiffs';
import type { V2Figures } from './taskResult';

/** What scoring gives a task's result; the agent's side (usage, cost, stages, wall time) is added by its workflow. */
export type V2Scored = Pick<
  TaskResult,
  'instructionType' | 'testCaseResults' | 'soft' | 'hard' | 'reasons' | 'failure'
> & { v2: V2Figures };

export interface ScoreAttemptInput {
  task: V2Task;
  /** The attempt's key (names its records). */
  key: string;
  /** The workbooks scored: the input and answer (their recalculated copies in a run) and the (recalculated) output. */
  files: V2TaskFiles;
  /** Where its cell diffs go (`V2RunFiles.cellDiffsPath`). */
  cellDiffsPath: string;
}

export async function scoreV2Attempt(input: ScoreAttemptInput): Promise<V2Scored> {
  const { task } = input;
  const problems = await v2TaskProblems(task);
  if (problems.length) return datasetFailure(task, problems);
  const scored = await scoreV2Files(task, input.files);
  await writeJsonAtomic(input.cellDiffsPath, cellDiffsOf(input.key, task.answer_position, scored.comparison));
  const { score } = scored;
  return {
    instructionType: task.category,
    testCaseResults: [score.accuracy],
    soft: score.accuracy,
    hard: score.accuracy,
    reasons: [score.accuracy === 1 ? null : reasonOf(task, input.files, scored)],
    v2: {
      category: task.category,
      errorMessage: score.error_message,
      accuracy: score.accuracy,
      regressionAccuracy: score.regression_accuracy,
      modificationAccuracy: score.modification_accuracy,
      missingOutput: scored.missing,
    },
  };
}

/** Why the task scored 0, naming it: an output that is missing or unreadable is said so, else the official message. */
function reasonOf(task: V2Task, files: V2TaskFiles, scored: V2TaskScore): string {
  const where = `task ${String(task.id)} (${task.category})`;
  const { comparison } = scored;
  if (scored.missing) return `${where}: no output was written (${path.basename(files.output)} does not exist)`;
  if (comparison.unreadable)
    return `${where}: the ${comparison.unreadable} workbook ${path.basename(files[comparison.unreadable])} could not be read: ${comparison.errorMessage}`;
  const cells = comparison.regression.total + comparison.modification.total;
  if (!cells) return `${where}: no regression or modification cell was compared: ${comparison.errorMessage}`;
  if (comparison.isCorrect) {
    const none = !comparison.regression.total ? 'regression' : 'modification';
    return `${where}: every cell matches, but the answer range holds no ${none} cell, and evaluation.py scores a ratio over no cells as 0`;
  }
  return `${where}: ${comparison.errorMessage}`;
}

/** As evaluation.py counts them: a missing input is a missing file (left out of the cell accuracies), the rest score 0. */
function datasetFailure(task: V2Task, problems: string[]): V2Scored {
  const message = problems.join('; ');
  const inputMissing = problems.some((p) => p.includes(`input file ${task.spreadsheet_path} is missing`));
  return {
    instructionType: task.category,
    testCaseResults: [0],
    soft: 0,
    hard: 0,
    reasons: [message],
    failure: { class: 'dataset', message },
    v2: {
      category: task.category,
      errorMessage: inputMissing ? `input file not exist (${message})` : message,
      accuracy: 0,
      regressionAccuracy: 0,
      modificationAccuracy: 0,
      missingOutput: inputMissing,
    },
  };
}
