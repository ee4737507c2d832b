import { scoreTask as scoreOneTask, type TaskCellDiffs } from '../../benchmarks/spreadsheetbench/scoring';
import { FloorStore } from '../../benchmarks/spreadsheetbench/scoring/floorStore';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { cellDiffsPath } from '../../benchmarks/spreadsheetbench/layout';
import { writeJsonAtomic } from '../../lib/runStore/files';

/** The floors of every dataset version this thread scores, computed once and kept in the user's cache folder. */
const floorStore = new FloorStore();

export interface ScoreTaskInput {
  runDir: string;
  taskId: string;
}

export interface ScoreTaskResult {
  testCaseResults: number[];
  soft: number;
  hard: number;
  reasons: (string | null)[];
}

/**
 * Scores one task's outputs and writes its cell diffs and floor (`tasks/<id>/cell-diffs.json`; the floor from the
 * floor store once computed for the dataset version). CPU-heavy (workbook
 * XML parsing, cell comparison, diffs): the scoring activity runs it in a worker thread (score.ts), never on the
 * worker's event loop.
 */
export async function scoreAndRecord(input: ScoreTaskInput): Promise<ScoreTaskResult> {
  const ctx = await sheetRun(input.runDir);
  const task = ctx.task(input.taskId);
  const { official, verdicts, cells } = await scoreOneTask({
    task,
    datasetDir: ctx.manifest.datasetDir,
    outputPathFor: (n: number) => ctx.official.outputPath(input.taskId, n),
    mode: ctx.manifest.scoringMode,
    withFloor: true,
    floorStore: { store: floorStore, datasetVersion: ctx.manifest.datasetVersion },
  });
  const diffs: TaskCellDiffs = {
    taskId: input.taskId,
    id: task.id,
    mode: ctx.manifest.scoringMode,
    answerPosition: task.answer_position,
    testCases: cells,
  };
  await writeJsonAtomic(cellDiffsPath(ctx.layout.root, input.taskId), diffs);
  return {
    testCaseResults: official.test_case_results,
    soft: official.soft_restriction,
    hard: official.hard_restriction,
    reasons: verdicts.map((v) => (v.pass ? null : (v.reason ?? 'failed'))),
  };
}
