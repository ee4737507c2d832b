import { copyFile, mkdir, rm } from 'node:fs/promises';
import { executionWorkDir } from '../workDirs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { taskKey } from '../../lib/runStore/taskRecord';
import { bindCodeToTestCase } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { executionFeedback } from '../../benchmarks/codeAgent/feedback';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { takeWorkDirOutput } from '../../lib/sandbox/hostFiles';
import { SandboxLostError } from '../../lib/sandbox';
import type { ExecutionResult } from '../../lib/sandbox/types';
import type { WorkerDeps } from '../deps';
import { testCaseOrFail } from './testCase';
import { executeOnce } from './sandboxProgram';
import { FailureTypes } from '../../lib/failureTypes';

export interface ExecuteSolutionInput {
  runDir: string;
  taskId: string;
  testCase: number;
  code: string;
  /** Names this execution's work dir and record (`final-tc2`, `round3`, ...). */
  label: string;
  /**
   * Keep the output in this folder of the task's artifact folder instead of making it the test case's output (an
   * agent that tries candidates before it submits one); the official output is then left as it is.
   */
  outputFolder?: string;
}

export interface ExecuteSolutionResult {
  /** The test case's output workbook was written by this execution (a stale file never counts). */
  outputProduced: boolean;
  /** The execution result as the official harness feeds it back to the model. */
  feedback: string;
  error: string;
  timedOut: boolean;
  /** With `outputFolder`: where the output was kept (absent when none was written). */
  keptAt?: string;
}

export interface ExecuteOnTestCasesInput {
  runDir: string;
  taskId: string;
  code: string;
  runs: { testCase: number; label: string }[];
  /** See ExecuteSolutionInput.outputFolder. */
  outputFolder?: string;
}

export function executeActivities(deps: WorkerDeps) {
  return {
    /**
     * Runs solution code on one test case in a fresh sandbox whose work dir holds only that test case's input
     * (never an answer file), then copies the output workbook into the run's outputs folder (only a regular file inside
     * the work dir: a planted link is refused, named in the error).
     */
    executeSolution: (input: ExecuteSolutionInput) => executeOnTestCase(deps, input),

    /** The same, for several test cases one after another, each in its own fresh sandbox: one activity instead of N. */
    async executeOnTestCases(input: ExecuteOnTestCasesInput): Promise<ExecuteSolutionResult[]> {
      const results: ExecuteSolutionResult[] = [];
      for (const run of input.runs)
        results.push(
          await executeOnTestCase(deps, {
            runDir: input.runDir,
            taskId: input.taskId,
            code: input.code,
            outputFolder: input.outputFolder,
            ...run,
          }),
        );
      return results;
    },
  };
}

async function executeOnTestCase(deps: WorkerDeps, input: ExecuteSolutionInput): Promise<ExecuteSolutionResult> {
  const ctx = await sheetRun(input.runDir);
  const task = ctx.task(input.taskId);
  const files = await testCaseOrFail(ctx, input.taskId, input.testCase);
  const id = taskKey(task.id);
  const workDir = await executionWorkDir(deps.config, ctx.manifest.runId, input.taskId, input.label);
  if (input.outputFolder && (path.isAbsolute(input.outputFolder) || input.outputFolder.split(/[\\/]/).includes('..')))
    throw ApplicationFailure.nonRetryable(
      `output folder ${input.outputFolder} is outside the task folder`,
      FailureTypes.ConfigError,
    );
  const finalOutput = input.outputFolder
    ? path.join(ctx.layout.taskDir(input.taskId), input.outputFolder, `${input.testCase}_${id}_output.xlsx`)
    : ctx.official.outputPath(input.taskId, input.testCase);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  await copyFile(files.inputPath, path.join(workDir, files.inputName));
  await rm(finalOutput, { force: true });

  let result = await runInSandbox(deps, workDir, (inside) =>
    bindCodeToTestCase(input.code, task, ctx.official.outputsName, input.testCase, inside),
  );
  const output = await takeWorkDirOutput(workDir, `${input.testCase}_${id}_output.xlsx`, finalOutput);
  const outputProduced = output.taken;
  if (!output.taken && output.problem) {
    const problem = `task ${input.taskId}, test case ${input.testCase}: ${output.problem}`;
    result = { ...result, error: result.error ? `${result.error}\n${problem}` : problem };
  }
  await writeJsonAtomic(path.join(ctx.layout.taskDir(input.taskId), 'executions', `${input.label}.json`), {
    label: input.label,
    testCase: input.testCase,
    code: input.code,
    ...result,
    outputProduced,
  });
  await rm(workDir, { recursive: true, force: true });
  const kept = input.outputFolder && outputProduced ? { keptAt: finalOutput } : {};
  return {
    outputProduced,
    feedback: executionFeedback(result),
    error: result.error,
    timedOut: result.timedOut,
    ...kept,
  };
}

async function runInSandbox(
  deps: WorkerDeps,
  workDir: string,
  bindCode: (workDirInside: string) => string,
): Promise<ExecutionResult> {
  try {
    // One execution, then dispose: importing pandas in the background would only burn CPU the code may not need.
    return await executeOnce(deps, workDir, bindCode, []);
  } catch (err) {
    if (err instanceof SandboxLostError) throw ApplicationFailure.retryable(err.message, FailureTypes.SandboxLost);
    throw err;
  }
}
