/**
 * A SpreadsheetBench task of a run for `sheetbench show` and the task page: the instruction and answer position, each
 * test case's verdict with its cell diff (tasks/<key>/cell-diffs.json), and the trajectory rebuilt from the task's
 * stage records, conversations and execution records.
 */
import path from 'node:path';
import { pathExists } from '../../../lib/runStore/files';
import { readJsonIfPresent, readRequiredJson } from '../../../lib/json';
import { taskListSchema, taskResultSchema } from './schemas';
import { readManifest } from '../../../lib/runStore/manifest';
import { RunLayout } from '../../../lib/runStore/runLayout';
import { attemptKey, parseAttemptKey, taskKey } from '../../../lib/runStore/taskRecord';
import type { TaskResult } from '../../../contracts/taskResult';
import { pendingFields, resultFields, TaskViewError, type TaskView, type TestCaseView } from '../../report/taskView';
import type { SheetTask } from '../dataset';
import { OfficialFiles } from '../layout';
import { readCellDiffs } from '../scoringFacts';
import { trajectoryOf } from './trajectory';

export const NO_CELL_DIFF =
  'no cell diff recorded: this result was written by a version of sheetbench without cell diffs';

export interface TaskViewOptions {
  /** Which attempt of a run with repeats (default: the one the task argument names, else 1). */
  epoch?: number;
}

export async function spreadsheetTaskView(
  runDir: string,
  taskArg: string,
  opts: TaskViewOptions = {},
): Promise<TaskView> {
  const manifest = await readManifest(runDir);
  const layout = new RunLayout(runDir);
  const tasks = await readRequiredJson(layout.taskListPath, taskListSchema);
  const { task, epoch } = resolveTask(manifest.runId, tasks, taskArg, opts.epoch, manifest.epochs ?? 1);
  const key = attemptKey(taskKey(task.id), epoch);
  const official = new OfficialFiles(runDir, manifest.setting, manifest.llm.model, manifest.epochs ?? 1);
  const result = (await readJsonIfPresent(layout.taskResultPath(key), taskResultSchema)) ?? null;
  const epochs = await recordedEpochs(layout, taskKey(task.id), manifest.epochs ?? 1);
  const base = {
    runId: manifest.runId,
    benchmark: manifest.benchmark,
    taskId: taskKey(task.id),
    attempt: key,
    epoch,
    epochs,
    instruction: task.instruction,
    instructionType: task.instruction_type,
    answerPosition: task.answer_position,
  };
  if (!result) return { ...base, testCases: [], ...pendingFields(`task ${key}`) };
  const diffs = await readCellDiffs(runDir, key);
  const testCases = await testCaseViews(result, diffs, (n) => official.outputPath(key, n), runDir);
  return {
    ...base,
    ...resultFields(result),
    testCases,
    trajectory: await trajectoryOf(layout.taskDir(key), result.stages),
    notes: diffs ? [] : [NO_CELL_DIFF],
  };
}

/** The task (by id, or by attempt key `<id>@<epoch>`) and the epoch; an unknown task or epoch is named. */
export function resolveTask(
  runId: string,
  tasks: SheetTask[],
  arg: string,
  epochOpt: number | undefined,
  epochs: number,
): { task: SheetTask; epoch: number } {
  const byKey = new Map(tasks.map((t) => [taskKey(t.id), t]));
  const direct = byKey.get(arg);
  const parsed = parseAttemptKey(arg);
  const task = direct ?? (epochs > 1 ? byKey.get(parsed.taskKey) : undefined);
  if (!task) {
    const some = tasks
      .slice(0, 8)
      .map((t) => taskKey(t.id))
      .join(', ');
    throw new TaskViewError(
      `run ${runId} has no task ${JSON.stringify(arg)} (its ${tasks.length} tasks: ${some}${tasks.length > 8 ? ', …' : ''})`,
    );
  }
  const epoch = epochOpt ?? (direct ? 1 : parsed.epoch);
  if (!Number.isInteger(epoch) || epoch < 1 || epoch > epochs) {
    throw new TaskViewError(
      `run ${runId} has no attempt ${epoch} of task ${taskKey(task.id)}: it samples each task ${epochs === 1 ? 'once' : `${epochs} times (epochs 1–${epochs})`}`,
    );
  }
  return { task, epoch };
}

async function recordedEpochs(layout: RunLayout, key: string, epochs: number): Promise<number[]> {
  const out: number[] = [];
  for (let e = 1; e <= epochs; e++) if (await pathExists(layout.taskResultPath(attemptKey(key, e)))) out.push(e);
  return out;
}

async function testCaseViews(
  result: TaskResult,
  diffs: Awaited<ReturnType<typeof readCellDiffs>>,
  outputOf: (n: number) => string,
  runDir: string,
): Promise<TestCaseView[]> {
  const output = async (n: number) => {
    const file = outputOf(n);
    return (await pathExists(file)) ? { output: path.relative(runDir, file).split(path.sep).join('/') } : {};
  };
  if (diffs) {
    return Promise.all(diffs.testCases.map(async (c) => ({ ...c, diffRecorded: true, ...(await output(c.index)) })));
  }
  return Promise.all(
    result.testCaseResults.map(async (r, i) => ({
      index: i + 1,
      pass: r === 1,
      ...(result.reasons[i] ? { reason: result.reasons[i] } : {}),
      diffRecorded: false,
      mismatches: [],
      omitted: 0,
      ...(await output(i + 1)),
    })),
  );
}
