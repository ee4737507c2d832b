import { copyFile, mkdir, rm } from 'node:fs/promises';
import { executionWorkDir } from './workDirs';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { withHeartbeat } from './heartbeat';
import { runContext } from '../run/runContext';
import { testCaseFiles, taskKey } from '../dataset/spreadsheetbench';
import { bindCodeToTestCase } from '../agents/officialPaths';
import { executionFeedback } from '../agents/feedback';
import { pathExists, writeJsonAtomic } from '../artifacts/files';
import { SandboxLostError } from '../sandbox';
import type { ExecutionResult } from '../sandbox/types';
import type { WorkerDeps } from './deps';

export interface ExecuteSolutionInput {
  runDir: string;
  taskId: string;
  testCase: number;
  code: string;
  /** Names this execution's work dir and record (`final-tc2`, `round3`, ...). */
  label: string;
}

export interface ExecuteSolutionResult {
  /** The test case's output workbook was written by this execution (a stale file never counts). */
  outputProduced: boolean;
  /** The execution result as the official harness feeds it back to the model. */
  feedback: string;
  error: string;
  timedOut: boolean;
}

export function executeActivities(deps: WorkerDeps) {
  return {
    /**
     * Runs solution code on one test case in a fresh sandbox whose work dir holds only that test case's input
     * (never an answer file), then copies the output workbook into the run's outputs folder.
     */
    async executeSolution(input: ExecuteSolutionInput): Promise<ExecuteSolutionResult> {
      const ctx = await runContext(input.runDir);
      const task = ctx.task(input.taskId);
      const files = (await testCaseFiles(ctx.manifest.datasetDir, task)).find((f) => f.index === input.testCase);
      if (!files) throw ApplicationFailure.nonRetryable(`task ${input.taskId}: no test case ${input.testCase}`, 'DatasetError');
      const id = taskKey(task.id);
      const workDir = await executionWorkDir(deps.config, ctx.manifest.runId, input.taskId, input.label);
      const finalOutput = ctx.layout.outputPath(input.taskId, input.testCase);
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true });
      await copyFile(files.inputPath, path.join(workDir, files.inputName));
      await rm(finalOutput, { force: true });

      const result = await runInSandbox(deps, workDir, (inside) =>
        bindCodeToTestCase(input.code, task, ctx.layout.outputsName, input.testCase, inside),
      );
      const produced = path.join(workDir, `${input.testCase}_${id}_output.xlsx`);
      const outputProduced = await pathExists(produced);
      if (outputProduced) {
        await mkdir(path.dirname(finalOutput), { recursive: true });
        await copyFile(produced, finalOutput);
      }
      await writeJsonAtomic(path.join(ctx.layout.taskDir(input.taskId), 'executions', `${input.label}.json`), {
        label: input.label,
        testCase: input.testCase,
        code: input.code,
        ...result,
        outputProduced,
      });
      await rm(workDir, { recursive: true, force: true });
      return { outputProduced, feedback: executionFeedback(result), error: result.error, timedOut: result.timedOut };
    },
  };
}

async function runInSandbox(deps: WorkerDeps, workDir: string, bindCode: (workDirInside: string) => string): Promise<ExecutionResult> {
  const factory = await deps.sandboxFactory();
  const sandbox = await factory.create({ workDir, limits: { memoryMiB: deps.config.sandbox.memoryMiB, maxProcesses: deps.config.sandbox.maxProcesses } });
  try {
    return await withHeartbeat(() =>
      sandbox.execute(bindCode(sandbox.workDirInside), {
        timeoutMs: deps.config.sandbox.executionTimeoutMs,
        signal: Context.current().cancellationSignal,
      }),
    );
  } catch (err) {
    if (err instanceof SandboxLostError) throw ApplicationFailure.retryable(err.message, 'SandboxLost');
    throw err;
  } finally {
    await sandbox.dispose();
  }
}

