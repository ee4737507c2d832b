/**
 * A SpreadsheetBench 2 task of a run for `sheetbench show` and the task page: the instruction, category and answer
 * position, its one verdict with the regression and modification tallies and the differing cells
 * (tasks/<key>/cell-diffs.json), a Visualization task's chart judgment (a note), and its trajectory from its stage
 * records. An unknown task throws TaskViewError.
 */
import path from 'node:path';
import { pathExists } from '../../../lib/runStore/files';
import { readJsonIfPresent } from '../../../lib/json';
import { taskKey } from '../../../lib/runStore/taskRecord';
import {
  pendingFields,
  resultFields,
  TaskViewError,
  type TaskView,
  type TestCaseView,
  type TrajectoryStep,
} from '../../report/taskView';
import { v2Run, type V2Run } from '../run/files';
import { v2CellDiffsSchema, type V2CellDiffs } from '../run/cellDiffs';
import { v2TaskResultSchema } from '../run/taskResult';
import type { V2Task } from '../dataset';
import type { StageRecord } from '../../../contracts/taskResult';
import { chartJudgmentNote, readChartJudgment, type chartJudgmentSchema } from '../visualization/chartJudgment';
import { v2JudgeSettingsFields, v2JudgeSettingsSchema } from '../visualization/judgeSettings';
import { createdJudgeFields } from '../visualization/runJudgeSettings';
import { judgeSettingsText } from '../../report/comparison';
import { VISUALIZATION_CATEGORY } from '../dataset';
import type { RunManifest } from '../../../lib/runStore/manifest';
import type { z } from 'zod';
import type { V2DatasetCopies } from '../run/datasetCopies';

export const NO_CELL_DIFF_V2 = 'no cell diff recorded: the task failed before its output was compared';

function findTask(run: V2Run, arg: string, epoch: number | undefined): V2Task {
  if (epoch !== undefined && epoch !== 1)
    throw new TaskViewError(
      `run ${run.manifest.runId} has no attempt ${epoch} of task ${arg}: it samples each task once`,
    );
  const task = run.tasks.find((t) => taskKey(t.id) === arg);
  if (task) return task;
  const some = run.tasks.slice(0, 8).map((t) => taskKey(t.id));
  throw new TaskViewError(
    `run ${run.manifest.runId} has no task ${JSON.stringify(arg)} (its ${run.tasks.length} tasks: ${some.join(', ')}${run.tasks.length > 8 ? ', …' : ''})`,
  );
}

export async function v2TaskView(runDir: string, arg: string, opts: { epoch?: number } = {}): Promise<TaskView> {
  const run = await v2Run(runDir);
  const task = findTask(run, arg, opts.epoch);
  const key = taskKey(task.id);
  const base = {
    runId: run.manifest.runId,
    benchmark: run.manifest.benchmark,
    taskId: key,
    attempt: key,
    epoch: 1,
    epochs: [] as number[],
    instruction: task.instruction,
    instructionType: task.category,
    answerPosition: task.answer_position,
  };
  const result = await readJsonIfPresent(run.layout.taskResultPath(key), v2TaskResultSchema);
  if (!result) return { ...base, testCases: [], ...pendingFields(`task ${key}`) };
  const diffs = await readJsonIfPresent(run.files.cellDiffsPath(key), v2CellDiffsSchema);
  const chart = await readChartJudgment(runDir, key);
  const output = run.files.outputPath(key);
  const outputRel = (await pathExists(output))
    ? { output: path.relative(runDir, output).split(path.sep).join('/') }
    : {};
  return {
    ...base,
    epochs: [1],
    ...resultFields(result),
    testCases: [testCaseView(result.hard === 1, result.reasons[0] ?? undefined, diffs, outputRel)],
    trajectory: result.stages.map(stepOf),
    notes: [
      ...(diffs ? [] : [NO_CELL_DIFF_V2]),
      ...copyNotes(result.v2?.datasetCopies),
      ...(chart ? [chartJudgmentNote(chart)] : []),
      ...judgeNotes(task, chart, run.manifest),
    ],
  };
}

/**
 * A Visualization task's judge settings: those its judgment was made with, else those run.json recorded when the run
 * was created (so two runs judged differently are told apart on the task too).
 */
function judgeNotes(
  task: V2Task,
  chart: z.output<typeof chartJudgmentSchema> | undefined,
  manifest: RunManifest,
): string[] {
  if (task.category !== VISUALIZATION_CATEGORY) return [];
  const used = v2JudgeSettingsSchema.safeParse(chart?.judge);
  if (used.success) return [`judged with: ${judgeSettingsText([v2JudgeSettingsFields(used.data)])}`];
  const created = createdJudgeFields(manifest);
  return [`judge settings of the run (run.json): ${created ? judgeSettingsText([created]) : 'not recorded'}`];
}

/** A dataset file the run could not recalculate (it was used as it is), said beside the verdict. */
function copyNotes(copies: V2DatasetCopies | undefined): string[] {
  if (!copies) return [];
  return (['input', 'answer'] as const).flatMap((kind) => {
    const problem = copies[kind].problem;
    return problem ? [`${kind} not recalculated: ${problem}`] : [];
  });
}

function testCaseView(
  pass: boolean,
  reason: string | undefined,
  diffs: V2CellDiffs | undefined,
  output: { output?: string },
): TestCaseView {
  return {
    index: 1,
    pass,
    ...(reason ? { reason } : {}),
    diffRecorded: diffs !== undefined,
    mismatches: diffs?.mismatches ?? [],
    omitted: diffs?.omitted ?? 0,
    ...(diffs
      ? {
          checkedCells: diffs.regression.total + diffs.modification.total,
          cells: { regression: diffs.regression, modification: diffs.modification },
        }
      : {}),
    ...output,
  };
}

/** A stage as recorded in the result (the scaffold's own records, when it writes them, add its exchanges). */
const stepOf = (s: StageRecord): TrajectoryStep => ({
  stage: s.stage,
  outcome: s.outcome,
  llmCalls: s.llmCalls,
  inputTokens: s.usage.inputTokens,
  outputTokens: s.usage.outputTokens,
  costUsd: s.costUsd,
  wallMs: s.wallMs,
  exchanges: [],
  executions: [],
});
