import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { withHeartbeat } from '../heartbeat';
import { executionWorkDir } from '../workDirs';
import { runContext } from '../../lib/runStore/runContext';
import { testCaseFiles, taskKey, type TestCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import { bindCodeToTestCase } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { executionFeedback } from '../../benchmarks/spreadsheetbench/agents/feedback';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { SandboxLostError } from '../../lib/sandbox';
import type { Sandbox } from '../../lib/sandbox/types';
import type { WorkerDeps } from '../deps';

/** Told to the model when its conversation's kernel is not the one that ran the earlier rounds. */
export const STATE_RESET_NOTE =
  '[Note: the Python state was reset before this execution (new worker or kernel restart): variables, imports and ' +
  'objects from earlier rounds are gone; files written to disk are gone too. Re-run any setup code you rely on.]';

/** Idle sessions are closed after this long (a task that ended elsewhere never sends its close here). */
export const SESSION_IDLE_TTL_MS = 10 * 60_000;

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

/** A file copied into a new session's work dir, under the name the code sees. */
export type SessionInput = Pick<TestCaseFiles, 'inputPath' | 'inputName'>;

export interface Session {
  sandbox: Sandbox;
  workDir: string;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Worker-local registry of persistent kernels, keyed by run/task/conversation. Multi-round agents explore then solve,
 * so consecutive executions of one conversation share a kernel across activities. When a round lands on another
 * worker (or after a crash) there is no session here: a fresh kernel runs the code and the model is told so.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Promise<Session>>();

  constructor(private readonly deps: WorkerDeps, private readonly idleTtlMs = SESSION_IDLE_TTL_MS) {}

  static key(runDir: string, taskId: string, conversation: string): string {
    return `${path.resolve(runDir)}::${taskId}::${conversation}`;
  }

  has(key: string): boolean {
    return this.sessions.has(key);
  }

  async open(key: string, workDir: string, inputs: SessionInput[]): Promise<Session> {
    let session = this.sessions.get(key);
    if (!session) {
      session = this.create(workDir, inputs);
      this.sessions.set(key, session);
      session.catch(() => this.sessions.delete(key));
    }
    const s = await session;
    this.touch(key, s);
    return s;
  }

  async close(key: string): Promise<boolean> {
    const session = this.sessions.get(key);
    if (!session) return false;
    this.sessions.delete(key);
    const s = await session.catch(() => undefined);
    if (s) {
      clearTimeout(s.idleTimer);
      await s.sandbox.dispose();
      await rm(s.workDir, { recursive: true, force: true });
    }
    return true;
  }

  /** Closes every session whose key starts with `prefix` (all conversations of a task). */
  async closeMatching(prefix: string): Promise<number> {
    const keys = [...this.sessions.keys()].filter((k) => k.startsWith(prefix));
    await Promise.all(keys.map((k) => this.close(k)));
    return keys.length;
  }

  get size(): number {
    return this.sessions.size;
  }

  private async create(workDir: string, inputs: SessionInput[]): Promise<Session> {
    await rm(workDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    for (const input of inputs) await copyFile(input.inputPath, path.join(workDir, input.inputName));
    const factory = await this.deps.sandboxFactory();
    const sandbox = await factory.create({ workDir, limits: { memoryMiB: this.deps.config.sandbox.memoryMiB, maxProcesses: this.deps.config.sandbox.maxProcesses } });
    return { sandbox, workDir };
  }

  private touch(key: string, s: Session): void {
    clearTimeout(s.idleTimer);
    s.idleTimer = setTimeout(() => void this.close(key), this.idleTtlMs);
    s.idleTimer.unref();
  }
}

export function sessionActivities(deps: WorkerDeps, registry = new SessionRegistry(deps)) {
  return {
    /** Runs code on test case 1 in the conversation's persistent kernel; the stop rule sees only files this run wrote. */
    async executeInSession(input: SessionExecuteInput): Promise<SessionExecuteResult> {
      const ctx = await runContext(input.runDir);
      const task = ctx.task(input.taskId);
      const [files] = await testCaseFiles(ctx.manifest.datasetDir, task, 1);
      if (!files) throw ApplicationFailure.nonRetryable(`task ${input.taskId}: no test case 1`, 'DatasetError');
      const key = SessionRegistry.key(input.runDir, input.taskId, input.conversation);
      const resumed = registry.has(key);
      if (input.round === 0) await rm(ctx.layout.outputPath(input.taskId, 1), { force: true });
      const workDir = await executionWorkDir(deps.config, ctx.manifest.runId, input.taskId, `session-${input.conversation}`);
      const session = await registry.open(key, workDir, [files]);
      const code = bindCodeToTestCase(input.code, task, ctx.layout.outputsName, 1, session.sandbox.workDirInside);
      const result = await executeWithHeartbeat(session.sandbox, code, deps.config.sandbox.executionTimeoutMs).catch(async (err: unknown) => {
        await registry.close(key);
        if (err instanceof SandboxLostError) throw ApplicationFailure.retryable(err.message, 'SandboxLost');
        throw err;
      });
      const outputName = `1_${taskKey(task.id)}_output.xlsx`;
      const outputProduced = result.files.includes(outputName);
      if (outputProduced) {
        const finalOutput = ctx.layout.outputPath(input.taskId, 1);
        await mkdir(path.dirname(finalOutput), { recursive: true });
        await copyFile(path.join(session.workDir, outputName), finalOutput);
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
      return { outputProduced, feedback: stateReset ? `${STATE_RESET_NOTE}\n${feedback}` : feedback, error: result.error, timedOut: result.timedOut, stateReset };
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
