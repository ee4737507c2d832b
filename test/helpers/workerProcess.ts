import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

/** When each worker of this test file was killed (ms since the epoch): a reply in flight then may be paid again. */
const kills: number[] = [];
export function workerKillTimes(): readonly number[] {
  return kills;
}

export interface WorkerProcess {
  child: ChildProcess;
  ready: Promise<void>;
  /** kill -9 of the worker's whole process group (worker, sandboxes, LibreOffice): a machine crash, as seen by Temporal. */
  crash(): void;
  exited: Promise<number | null>;
  /** The last lines the worker wrote to stderr (diagnostics when a wait on it times out). */
  stderrTail(): string;
}

/** A worker in its own process (workers/main.ts from its prebuilt bundle: bin/entry.mjs), in its own process group. */
export function spawnWorker(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, [path.join(REPO, 'bin/entry.mjs'), 'workers/main.ts'], {
    cwd: REPO,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve());
    void exited.then((code) => reject(new Error(`worker exited (${code}) before ready: ${stderr.slice(-2000)}`)));
  });
  return {
    child,
    ready,
    exited,
    stderrTail: () => stderr.slice(-1500),
    crash: () => {
      kills.push(Date.now());
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    },
  };
}

/** kill -9 of `worker` (after a short grace, so calls in flight reach the model) and a fresh worker in its place. */
export async function crashAndRespawn(
  worker: WorkerProcess,
  env: NodeJS.ProcessEnv,
  graceMs = 700,
): Promise<WorkerProcess> {
  await new Promise((r) => setTimeout(r, graceMs));
  worker.crash();
  await worker.exited;
  const next = spawnWorker(env);
  await next.ready;
  return next;
}
