import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants, openSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { chown, mkdtemp, readFile, rmdir } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { bwrapArgs, BWRAP } from './bwrap';
import type { KernelStreams, ProcessExit } from './kernelProcess';
import type { ProcessRlimit } from './limits';
import { assertRuntimeReachable } from './processLauncher';
import { PassThrough } from './passThrough';
import type { HostUser } from './reachable';
import { INSIDE, pythonInside, type Bind, type SandboxRuntime } from './runtime';

/**
 * The name (/proc/<pid>/comm) zygote.py gives the zygote (each kernel it forks renames itself sb-kernel first thing): its
 * descendants are its kernels, whatever names their code gives itself.
 */
export const ZYGOTE_NAME = 'sb-zygote';

const JOBS_INSIDE = '/tmp/.jobs';
const FIFOS_INSIDE = '/tmp/.fifos';
const READY_TIMEOUT_MS = 60_000;
/** The zygote's exit message can overtake the last bytes still in a kernel's FIFOs: give the readers a moment. */
const FIFO_DRAIN_MS = 25;

const messageSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('ready') }),
  z.object({ op: z.literal('started'), id: z.string(), pid: z.number().int() }),
  z.object({
    op: z.literal('exited'),
    id: z.string(),
    code: z.number().int().nullable(),
    signal: z.string().nullable(),
  }),
  z.object({ op: z.literal('failed'), id: z.string(), error: z.string() }),
]);

export interface ForkedKernelRequest {
  /** Folder directly inside the jobs root that becomes the kernel's /job. */
  workDir: string;
  env: Record<string, string>;
  rlimits: Partial<Record<ProcessRlimit, number>>;
  tmpBytes: number;
  /** Called with the kernel's host pid before any of its code runs (to put it in the execution's cgroup). */
  adopt?: (hostPid: number) => Promise<void>;
}

interface Running {
  started: (pid: number) => void;
  failed: (error: Error) => void;
  exited: (exit: ProcessExit) => void;
}

/**
 * One warm Python (lib/sandbox/zygote.py) inside bwrap that kernels fork from: a kernel costs a fork and a few mounts
 * instead of a bwrap start, an interpreter start and the pandas import. Kernels talk to the host through FIFOs made
 * per kernel, so everything above the Launcher (KernelSandbox, the kernel protocol) is unchanged. If the zygote dies,
 * its kernels die with it (they are reported exited) and the next kernel starts a fresh one.
 */
export class ForkServer {
  private proc: ChildProcessWithoutNullStreams | null = null;
  private ready: Promise<ChildProcessWithoutNullStreams> | null = null;
  private zygoteHostPid = 0;
  private readonly running = new Map<string, Running>();
  private nextId = 0;
  private fifoRoot: Promise<string> | null = null;
  private stderrTail = '';

  constructor(
    readonly jobsRoot: string,
    private readonly runtime: SandboxRuntime,
    private readonly owner: HostUser | undefined,
    private readonly tmpMiB: number,
  ) {}

  /** Can a kernel for this work dir be forked here (it must sit directly in the jobs root)? */
  serves(workDir: string): boolean {
    return dirname(workDir) === this.jobsRoot;
  }

  async startKernel(req: ForkedKernelRequest): Promise<KernelStreams> {
    const proc = await this.ensureReady();
    const id = String(++this.nextId);
    const fifoDir = join(await this.ensureFifoRoot(), id);
    let resolveExit!: (exit: ProcessExit) => void;
    const exited = new Promise<ProcessExit>((resolve) => (resolveExit = resolve));
    const started = new Promise<number>((resolve, reject) =>
      this.running.set(id, { started: resolve, failed: reject, exited: resolveExit }),
    );
    this.holdProcessOpen();
    // Assigned once the fifos are open (below); closed when the process has exited and its output has drained.
    const fifos: { streams?: ReturnType<typeof openFifos> } = {};
    void exited.then(() => {
      this.running.delete(id);
      this.holdProcessOpen();
      setTimeout(() => {
        fifos.streams?.close();
        // Best-effort: the fifo folder is ours and empty of anything worth keeping; a failure leaves a stale folder.
        void removeFifoDir(fifoDir);
      }, FIFO_DRAIN_MS);
    });
    this.send(proc, {
      op: 'spawn',
      id,
      job: basename(req.workDir),
      fifos: id,
      env: req.env,
      rlimits: req.rlimits,
      tmpBytes: req.tmpBytes,
    });
    const nsPid = await Promise.race([started, exited.then(() => 0)]).catch((err: Error) => {
      this.running.delete(id);
      this.holdProcessOpen();
      throw err;
    });
    // The zygote made the FIFOs before it forked; the kernel opens its ends only after "go", so ours come first.
    const streams = (fifos.streams = openFifos(fifoDir));
    if (nsPid) {
      try {
        if (req.adopt) await req.adopt(this.hostPidOf(nsPid));
        this.send(proc, { op: 'go', id });
      } catch (err) {
        this.send(proc, { op: 'kill', id });
        throw err;
      }
    }
    const delayedExit = exited.then(
      (exit) => new Promise<ProcessExit>((r) => setTimeout(() => r(exit), FIFO_DRAIN_MS)),
    );
    return {
      ...streams.kernel,
      kill: () => this.proc === proc && this.send(proc, { op: 'kill', id }),
      exited: delayedExit,
    };
  }

  /** The zygote's host pid (tests and benchmarks). */
  get pid(): number | undefined {
    return this.zygoteHostPid || undefined;
  }

  close(): void {
    this.proc?.kill('SIGKILL');
  }

  private ensureReady(): Promise<ChildProcessWithoutNullStreams> {
    this.ready ??= this.start().catch((err) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }

  private async start(): Promise<ChildProcessWithoutNullStreams> {
    if (this.owner) await assertRuntimeReachable(this.runtime, this.owner, { zygote: true });
    const fifoRoot = await this.ensureFifoRoot();
    const python = pythonInside(this.runtime.python);
    const env = {
      PATH: `${dirname(python.python)}:/usr/bin:/bin`,
      HOME: '/tmp',
      LANG: 'C.UTF-8',
      OPENBLAS_NUM_THREADS: '1',
      OMP_NUM_THREADS: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      MPLBACKEND: 'Agg',
      MPLCONFIGDIR: '/tmp',
    };
    const readOnly: Bind[] = [
      ...python.binds,
      [this.runtime.kernel, INSIDE.kernel],
      [this.runtime.zygote, INSIDE.zygote],
    ];
    // bwrap binds them as the sandbox uid: those behind a folder it may not enter are passed through
    const passThrough = await PassThrough.prepare(
      [...readOnly.map(([host]) => host), this.jobsRoot, fifoRoot],
      this.owner,
    );
    const args = bwrapArgs({
      workDir: passThrough.path(this.jobsRoot),
      workDirInside: JOBS_INSIDE,
      readOnly: readOnly.map(([host, inside]): Bind => [passThrough.path(host), inside]),
      binds: [[passThrough.path(fifoRoot), FIFOS_INSIDE]],
      dirs: ['/job'],
      tmpMiB: this.tmpMiB,
      env,
      keepCaps: ['CAP_SYS_ADMIN', 'CAP_SETPCAP'],
    });
    const command = passThrough.wrap([BWRAP, ...args, python.python, INSIDE.zygote]);
    const proc = spawn(command[0], command.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {},
      // Passed through, the command starts as root (to mount) and drops to the sandbox's uid itself.
      ...(passThrough.active ? { cwd: '/' } : (this.owner ?? {})),
    });
    this.proc = proc;
    proc.stdin.on('error', () => undefined);
    proc.stderr.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-4000)));
    const lines = createInterface({ input: proc.stdout });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the fork server was not ready within ${READY_TIMEOUT_MS / 1000} s`)),
        READY_TIMEOUT_MS,
      );
      proc.once(
        'exit',
        (code, signal) => (
          clearTimeout(timer),
          reject(
            new Error(
              `the fork server exited during start-up (${signal ?? code}): ${this.stderrTail.trim().slice(-1000)}`,
            ),
          )
        ),
      );
      lines.on('line', (line) => {
        const msg = messageSchema.safeParse(safeJson(line));
        if (!msg.success) return;
        if (msg.data.op === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (msg.data.op === 'started') this.running.get(msg.data.id)?.started(msg.data.pid);
        else if (msg.data.op === 'failed')
          this.running.get(msg.data.id)?.failed(new Error(`fork server: ${msg.data.error}`));
        else this.running.get(msg.data.id)?.exited({ code: msg.data.code, signal: msg.data.signal });
      });
    });
    proc.on('exit', () => this.onZygoteExit(proc));
    try {
      await ready;
      this.zygoteHostPid = await findZygote(proc.pid!);
    } catch (err) {
      proc.kill('SIGKILL');
      throw err;
    } finally {
      this.holdProcessOpen();
    }
    return proc;
  }

  /** An idle zygote must not keep this process alive; one that is starting or running kernels must. */
  private holdProcessOpen(): void {
    const proc = this.proc;
    if (!proc) return;
    const hold = this.running.size > 0 || !this.zygoteHostPid;
    for (const handle of [proc, proc.stdin, proc.stdout, proc.stderr] as unknown as { ref(): void; unref(): void }[]) {
      if (hold) handle.ref();
      else handle.unref();
    }
  }

  /** Its kernels died with it (parent-death signal): report them, and let the next kernel start a fresh zygote. */
  private onZygoteExit(proc: ChildProcessWithoutNullStreams): void {
    if (this.proc !== proc) return;
    this.proc = null;
    this.ready = null;
    this.zygoteHostPid = 0;
    for (const kernel of this.running.values()) kernel.exited({ code: null, signal: 'SIGKILL' });
  }

  private send(proc: ChildProcessWithoutNullStreams, msg: object): void {
    proc.stdin.write(`${JSON.stringify(msg)}\n`);
  }

  /** Where the zygote makes each kernel's FIFOs: private to the sandbox uid. */
  private ensureFifoRoot(): Promise<string> {
    this.fifoRoot ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sheetbench-fifos-'));
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      if (this.owner) await chown(dir, this.owner.uid, this.owner.gid);
      return dir;
    })();
    return this.fifoRoot;
  }

  /**
   * Host pid of the zygote's child `nsPid` (its pid as the zygote sees it), from /proc's children lists and NSpid (a
   * child is pid 1 of a namespace of its own, one level below the zygote's: its pid in the zygote's namespace is the
   * NSpid entry at the zygote's own level).
   */
  private hostPidOf(nsPid: number): number {
    // /proc answers at once: synchronous reads, no thread-pool round trip per file (one per child of the zygote).
    const zygote = this.zygoteHostPid;
    const zygoteLevel = nsPidsOf(readFileSync(`/proc/${zygote}/status`, 'utf8')).length - 1;
    const children = readFileSync(`/proc/${zygote}/task/${zygote}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    for (const child of children) {
      if (Number(nsPidsOf(statusOf(child))[zygoteLevel]) === nsPid) return Number(child);
    }
    throw new Error(`fork server: kernel pid ${nsPid} not found among the zygote's children`);
  }
}

/**
 * Removes a kernel's FIFO folder and its FIFOs; a failure (already gone, not ours) leaves it. The folder's rmdir goes
 * through the thread pool: it can wait in the kernel under load, and a synchronous one held the worker's event loop
 * that long. Measured in a loaded run (bench/reply-to-cache.ts, load average 12 on 2 cores, 240 kernels): rmdir p99
 * 20 ms, max 41 ms, 0.50 s of a 20 s run; the readdir and the unlinks of the FIFOs under 0.4 ms (kept synchronous).
 */
async function removeFifoDir(dir: string): Promise<void> {
  try {
    for (const name of readdirSync(dir)) unlinkSync(join(dir, name));
    await rmdir(dir);
  } catch {
    // best-effort cleanup: a stale folder is harmless
  }
}

/** /proc/<pid>/status, or '' for a process that has just ended. */
function statusOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

const FIFO_NAMES = ['in', 'out', 'err', 'reply'] as const;

/**
 * The host's ends, opened O_RDWR so opening never blocks and a reader never sees EOF before the kernel opens its end
 * (end of a kernel is reported by the zygote, not by EOF).
 */
function openFifos(dir: string): { kernel: Omit<KernelStreams, 'kill' | 'exited'>; close: () => void } {
  const open = (name: string, hostWrites: boolean) =>
    // A socket on an O_RDWR fd would also read what it writes: each end gets exactly one direction.
    new Socket({
      fd: openSync(join(dir, name), constants.O_RDWR | constants.O_NONBLOCK),
      readable: !hostWrites,
      writable: hostWrites,
    });
  const [stdin, stdout, stderr, replies] = FIFO_NAMES.map((name) => open(name, name === 'in'));
  for (const s of [stdin, stdout, stderr, replies]) s.on('error', () => undefined);
  return {
    kernel: { stdin, stdout, stderr, replies },
    close: () => [stdin, stdout, stderr, replies].forEach((s) => s.destroy()),
  };
}

/** A process's pid in each pid namespace it is in, outermost first (the NSpid line of /proc/<pid>/status). */
function nsPidsOf(status: string): string[] {
  return /^NSpid:\s*(.+)$/m.exec(status)?.[1].trim().split(/\s+/) ?? [];
}

/**
 * bwrap (outer) → bwrap as the pid namespace's init → zygote.py, waiting → the zygote (pid 1 of a namespace of its own:
 * zygote.py's own_pid_namespace), found by the name it gives itself: the first process under bwrap with that name.
 */
async function findZygote(bwrapPid: number): Promise<number> {
  let level = [bwrapPid];
  for (let depth = 0; depth < 5 && level.length; depth++) {
    const next: number[] = [];
    for (const pid of level) {
      const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      if (comm === ZYGOTE_NAME) return pid;
      const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
      next.push(...children.trim().split(/\s+/).filter(Boolean).map(Number));
    }
    level = next;
  }
  throw new Error(`fork server: no process named ${ZYGOTE_NAME} (the zygote) was found under bwrap`);
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
