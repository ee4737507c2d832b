/**
 * Per-task scoring as the official main loop does it: exactly three test cases, soft = passes/3, hard = no zero.
 * A Verified task (one `init`/`golden` case) is scored on its one case, as the Verified tooling does (soft = hard).
 */
import path from 'node:path';
import { OFFICIAL_TEST_CASES, testCaseFiles, type SheetTask, type TestCaseFiles } from '../dataset';
import { taskKey } from '../../../lib/runStore/taskRecord';
import type { OfficialTaskScore, ScoringMode, TestCaseVerdict } from './types';
import { diffTestCase, evaluateTestCase, openForComparison, type OpenedWorkbook } from './compareWorkbooks';
import type { TestCaseCells } from './cellDiff';
import type { FloorQuery, FloorStore } from './floorStore';

export interface ScoreTaskInput {
  task: SheetTask;
  datasetDir: string;
  /** Output workbook of test case n (1-based). */
  outputPathFor: (n: number) => string;
  mode?: ScoringMode;
  /** Also score each unchanged input (the floor: what a do-nothing agent gets), recorded in the cell diffs. */
  withFloor?: boolean;
  /** Where the floor is kept per dataset version (computed once, then read back); computed every time when absent. */
  floorStore?: { store: FloorStore; datasetVersion: string };
}

export function answerPathFor(datasetDir: string, task: SheetTask, n: number): string {
  return path.join(datasetDir, task.spreadsheet_path, `${n}_${taskKey(task.id)}_answer.xlsx`);
}

export function outputFileName(task: SheetTask, n: number): string {
  return `${n}_${taskKey(task.id)}_output.xlsx`;
}

export function officialScore(task: SheetTask, verdicts: TestCaseVerdict[]): OfficialTaskScore {
  const results = verdicts.map((v) => (v.pass ? 1 : 0));
  return {
    id: task.id,
    instruction_type: task.instruction_type,
    test_case_results: results,
    soft_restriction: results.filter((r) => r === 1).length / results.length,
    hard_restriction: results.includes(0) ? 0 : 1,
  };
}

export interface ScoredTask {
  official: OfficialTaskScore;
  verdicts: TestCaseVerdict[];
  /** Every test case's cell diff (cellDiff.ts), with the floor when asked for. */
  cells: TestCaseCells[];
}

export async function scoreTask(input: ScoreTaskInput): Promise<ScoredTask> {
  const files = await testCaseFiles(input.datasetDir, input.task);
  const verified = files.length === 1 && !files[0].inputPath.endsWith('_input.xlsx');
  const count = verified ? 1 : OFFICIAL_TEST_CASES;
  const cells: TestCaseCells[] = [];
  const answers = new Map<number, OpenedWorkbook>();
  for (let n = 1; n <= count; n++) {
    const file = files.find((f) => f.index === n);
    const answerPath = file?.answerPath ?? answerPathFor(input.datasetDir, input.task, n);
    // One opened answer serves the output's comparison and the floor's.
    const answer = await openForComparison(answerPath);
    if (file) answers.set(n, answer);
    const testCase = { index: n, answerPath, answerPosition: input.task.answer_position, mode: input.mode, answer };
    const diff: TestCaseCells = await diffTestCase({ ...testCase, outputPath: input.outputPathFor(n) });
    if (!file) diff.unreachable = `the dataset has no test case ${n} (no input workbook): it always scores 0`;
    cells.push(diff);
  }
  if (input.withFloor) {
    const floor = await taskFloor(input, files, answers);
    for (const [i, f] of files.entries()) {
      const cell = cells.find((c) => c.index === f.index);
      if (cell) cell.inputPasses = floor[i];
    }
  }
  const verdicts = cells.map(({ index, pass, reason }): TestCaseVerdict =>
    reason === undefined ? { index, pass } : { index, pass, reason },
  );
  return { official: officialScore(input.task, verdicts), verdicts, cells };
}

/** Whether each unchanged input passes its test case (`files` order): from the floor store, else computed (and kept). */
async function taskFloor(
  input: ScoreTaskInput,
  files: TestCaseFiles[],
  answers: Map<number, OpenedWorkbook>,
): Promise<boolean[]> {
  const query: FloorQuery | undefined = input.floorStore && {
    datasetVersion: input.floorStore.datasetVersion,
    taskKey: taskKey(input.task.id),
    mode: input.mode ?? 'official',
    answerPosition: input.task.answer_position,
    cases: files,
  };
  const recorded = query && (await input.floorStore!.store.get(query));
  if (recorded) return recorded;
  const floor: boolean[] = [];
  for (const f of files) {
    const verdict = await evaluateTestCase({
      index: f.index,
      answerPath: f.answerPath,
      outputPath: f.inputPath,
      answerPosition: input.task.answer_position,
      mode: input.mode,
      answer: answers.get(f.index),
    });
    floor.push(verdict.pass);
  }
  // The store only saves work: a floor that cannot be kept (read-only cache folder) is computed again next time.
  if (query)
    await input.floorStore!.store.put(query, floor).catch((err: Error) => {
      console.warn(`task ${query.taskKey}: floor not kept in ${input.floorStore!.store.dir}: ${err.message}`);
    });
  return floor;
}
