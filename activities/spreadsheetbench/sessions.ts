import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { withHeartbeat } from '../heartbeat';
import { executionWorkDir } from '../workDirs';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import { taskKey } from '../../lib/runStore/taskRecord';
import { bindCodeToTestCase } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { executionFeedback } from '../../benchmarks/codeAgent/feedback';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { takeWorkDirOutput } from '../../lib/sandbox/hostFiles';
import { SandboxLostError } from '../../lib/sandbox';
import type { Sandbox } from '../../lib/sandbox/types';
import type { WorkerDeps } from '../deps';
import { SessionRegistry, STATE_RESET_NOTE } from '../sessionRegistry';
import { FailureTypes } from '../../lib/failureTypes';

export interface SessionExecuteInput {
  runDir: string;
  taskId: string;
  /** The conversation that owns the kernel (one kernel per conversation, like the official `convid`). */
  conversation: string;
  /** 0-based round; a session found missing at round > 0 means the earlier state is lost. */
  round: number;
  code: string;
  label: string;
}

export interface SessionExecuteResult {
  outputProduced: boolean;
  feedback: string;
  error: string;
  timedOut: boolean;
  stateReset: boolean;
}

export function sessionActivities(deps: WorkerDeps, registry = new SessionRegistry(deps)) {
  return {
    /** Runs code on test case 1 in the conversation's persistent kernel; the stop rule sees only files this run wrote. */
    async executeInSession(input: SessionExecuteInput): Promise<SessionExecuteResult> {
      const ctx = await sheetRun(input.runDir);
      const task = ctx.task(input.taskId);
      const [files] = await testCaseFiles(ctx.manifest.datasetDir, task, 1);
      if (!files)
        throw ApplicationFailure.nonRetryable(`task ${input.taskId}: no test case 1`, FailureTypes.DatasetError);
      const key = SessionRegistry.key(input.runDir, input.taskId, input.conversation);
      const resumed = registry.has(key);
      if (input.round === 0) await rm(ctx.official.outputPath(input.taskId, 1), { force: true });
      const workDir = await executionWorkDir(
        deps.config,
        ctx.manifest.runId,
        input.taskId,
        `session-${input.conversation}`,
      );
      const session = await registry.open(key, workDir, [files]);
      const code = bindCodeToTestCase(input.code, task, ctx.official.outputsName, 1, session.sandbox.workDirInside);
      let result = await executeWithHeartbeat(session.sandbox, code, deps.config.sandbox.executionTimeoutMs).catch(
        async (err: unknown) => {
          await registry.close(key);
          if (err instanceof SandboxLostError)
            throw ApplicationFailure.retryable(err.message, FailureTypes.SandboxLost);
          throw err;
        },
      );
      const outputName = `1_${taskKey(task.id)}_output.xlsx`;
      const output = result.files.includes(outputName)
        ? await takeWorkDirOutput(session.workDir, outputName, ctx.official.outputPath(input.taskId, 1))
        : { taken: false as const };
      const outputProduced = output.taken;
      if (!output.taken && output.problem) {
        const problem = `task ${input.taskId}, test case 1: ${output.problem}`;
        result = { ...result, error: result.error ? `${result.error}\n${problem}` : problem };
      }
      const stateReset = (input.round > 0 && !resumed) || result.stateReset;
      await writeJsonAtomic(path.join(ctx.layout.taskDir(input.taskId), 'executions', `${input.label}.json`), {
        label: input.label,
        testCase: 1,
        session: input.conversation,
        code: input.code,
        ...result,
        stateReset,
        outputProduced,
      });
      const feedback = executionFeedback(result);
      return {
        outputProduced,
        feedback: stateReset ? `${STATE_RESET_NOTE}\n${feedback}` : feedback,
        error: result.error,
        timedOut: result.timedOut,
        stateReset,
      };
    },

    /** Ends a task's kernels on this worker (sessions on other workers end by their idle TTL). */
    async closeSessions(input: { runDir: string; taskId: string }): Promise<{ closed: number }> {
      return { closed: await registry.closeMatching(`${SessionRegistry.key(input.runDir, input.taskId, '')}`) };
    },
  };
}

function executeWithHeartbeat(sandbox: Sandbox, code: string, timeoutMs: number) {
  return withHeartbeat(() => sandbox.execute(code, { timeoutMs, signal: Context.current().cancellationSignal }));
}
