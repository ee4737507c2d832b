/** The answer grid of a test case of a task (or attempt) of a run: its workbooks found through the run folder. */
import { z } from 'zod';
import { readRequiredJson } from '../../../lib/json';
import { readManifest } from '../../../lib/runStore/manifest';
import { RunLayout } from '../../../lib/runStore/runLayout';
import { attemptKey, taskKey } from '../../../lib/runStore/taskRecord';
import { TaskViewError, type TestCaseGrid } from '../../report/taskView';
import { sheetTaskSchema, testCaseFiles } from '../dataset';
import { OfficialFiles } from '../layout';
import { resolveTask } from '../report/taskView';
import { answerPathFor } from '../scoring/scoreTask';
import { answerGrid } from './answerGrid';

export async function testCaseGrid(
  runDir: string,
  taskArg: string,
  testCase: number,
  opts: { epoch?: number } = {},
): Promise<TestCaseGrid> {
  const manifest = await readManifest(runDir);
  const tasks = await readRequiredJson(new RunLayout(runDir).taskListPath, z.array(sheetTaskSchema));
  const { task, epoch } = resolveTask(manifest.runId, tasks, taskArg, opts.epoch, manifest.epochs ?? 1);
  const key = attemptKey(taskKey(task.id), epoch);
  // The dataset may not be on this host (`show` run elsewhere): the grid then says the test case has no files.
  const files = await testCaseFiles(manifest.datasetDir, task).catch(() => []);
  const file = files.find((f) => f.index === testCase);
  const cases = Math.max(files.length, 1);
  if (!Number.isInteger(testCase) || testCase < 1 || testCase > Math.max(cases, 3)) {
    throw new TaskViewError(`task ${key} of run ${manifest.runId} has no test case ${testCase}`);
  }
  const official = new OfficialFiles(runDir, manifest.setting, manifest.llm.model, manifest.epochs ?? 1);
  const grid = await answerGrid({
    answerPath: file?.answerPath ?? answerPathFor(manifest.datasetDir, task, testCase),
    inputPath: file?.inputPath,
    outputPath: official.outputPath(key, testCase),
    answerPosition: task.answer_position,
    mode: manifest.scoringMode,
  });
  return {
    runId: manifest.runId,
    taskId: taskKey(task.id),
    attempt: key,
    testCase,
    answerPosition: task.answer_position,
    ...grid,
  };
}
