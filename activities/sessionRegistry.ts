import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '../lib/sandbox/types';
import type { WorkerDeps } from './deps';

/** Told to the model when its conversation's kernel is not the one that ran the earlier rounds. */
export const STATE_RESET_NOTE =
  '[Note: the Python state was reset before this execution (new worker or kernel restart): variables, imports and ' +
  'objects from earlier rounds are gone; files written to disk are gone too. Re-run any setup code you rely on.]';

/** Idle sessions are closed after this long (a task that ended elsewhere never sends its close here). */
export const SESSION_IDLE_TTL_MS = 10 * 60_000;

/** A file copied into a new session's work dir, under the name the code sees. */
export interface SessionInput {
  /** The file on the host. */
  inputPath: string;
  /** Its name in the work dir. */
  inputName: string;
}

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

  constructor(
    private readonly deps: WorkerDeps,
    private readonly idleTtlMs = SESSION_IDLE_TTL_MS,
  ) {}

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
    const s = await session.catch(() => undefined); // a session that failed to start has nothing to close
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
    const sandbox = await factory.create({
      workDir,
      limits: { memoryMiB: this.deps.config.sandbox.memoryMiB, maxProcesses: this.deps.config.sandbox.maxProcesses },
    });
    return { sandbox, workDir };
  }

  private touch(key: string, s: Session): void {
    clearTimeout(s.idleTimer);
    s.idleTimer = setTimeout(() => void this.close(key), this.idleTtlMs);
    s.idleTimer.unref();
  }
}
