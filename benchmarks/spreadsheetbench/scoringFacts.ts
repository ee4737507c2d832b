/**
 * What a run's cell diffs say beyond its scores: the floor (what the do-nothing agent scores: test cases the unchanged
 * input already passes) and the test cases no output can pass under the scoring mode. Both depend on the task, not on
 * the attempt, so each task counts once however many epochs the run has.
 */
import { CorruptFileError, readJsonIfPresent, warnCorruptFile } from '../../lib/json';
import { cellDiffsPath } from './layout';
import type { TaskCellDiffs } from './scoring';
import { taskCellDiffsSchema } from './scoring/cellDiffsSchema';

export interface FloorLine {
  /** Tasks with a recorded floor (results written before cell diffs have none). */
  tasks: number;
  testCases: number;
  passedByInput: number;
  /** Mean over those tasks of the share of test cases the input passes, and of all of them passing. */
  soft: number;
  hard: number;
}

export interface UnreachableCase {
  taskId: string;
  testCase: number;
  reason: string;
}

export interface ScoringFacts {
  floor?: FloorLine;
  unreachable: UnreachableCase[];
}

/** A task attempt's cell diffs, or null when none was recorded (results of older versions); corrupt ones throw. */
export async function readCellDiffs(runDir: string, key: string): Promise<TaskCellDiffs | null> {
  return (await readJsonIfPresent(cellDiffsPath(runDir, key), taskCellDiffsSchema)) ?? null;
}

/** The floor and unreachable test cases over the given task attempts (`{taskKey, key}`: the task and one of its attempts). */
export async function scoringFacts(
  runDir: string,
  attempts: { taskKey: string; key: string }[],
): Promise<ScoringFacts> {
  const seen = new Set<string>();
  const floor: FloorLine = { tasks: 0, testCases: 0, passedByInput: 0, soft: 0, hard: 0 };
  const unreachable: UnreachableCase[] = [];
  for (const { taskKey, key } of attempts) {
    if (seen.has(taskKey)) continue;
    const diffs = await readCellDiffs(runDir, key).catch((err: unknown) => {
      if (!(err instanceof CorruptFileError)) throw err;
      warnCorruptFile(err, 'the task is left out of the floor and the unreachable test cases');
      return null;
    });
    if (!diffs) continue;
    seen.add(taskKey);
    const cases = diffs.testCases;
    for (const c of cases)
      if (c.unreachable) unreachable.push({ taskId: taskKey, testCase: c.index, reason: c.unreachable });
    const passes = cases.filter((c) => c.inputPasses === true).length;
    floor.tasks++;
    floor.testCases += cases.length;
    floor.passedByInput += passes;
    floor.soft += cases.length ? passes / cases.length : 0;
    floor.hard += cases.length && passes === cases.length ? 1 : 0;
  }
  if (floor.tasks) {
    floor.soft /= floor.tasks;
    floor.hard /= floor.tasks;
  }
  return { ...(floor.tasks ? { floor } : {}), unreachable };
}
