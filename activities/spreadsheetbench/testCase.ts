import { ApplicationFailure } from '@temporalio/activity';
import { testCaseFiles, type TestCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import type { SheetRun } from '../../benchmarks/spreadsheetbench/run';
import { FailureTypes } from '../../lib/failureTypes';

/** Test case `testCase` of a task in the run's dataset; a DatasetError (not retried) naming both when it is missing. */
export async function testCaseOrFail(ctx: SheetRun, taskId: string, testCase: number): Promise<TestCaseFiles> {
  const files = (await testCaseFiles(ctx.manifest.datasetDir, ctx.task(taskId))).find((f) => f.index === testCase);
  if (!files)
    throw ApplicationFailure.nonRetryable(`task ${taskId}: no test case ${testCase}`, FailureTypes.DatasetError);
  return files;
}
