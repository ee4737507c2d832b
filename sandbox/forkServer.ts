import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants, openSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { bwrapArgs, BWRAP } from './bwrap';
import type { KernelStreams, ProcessExit } from './kernelProcess';
import type { ProcessRlimit } from './limits';
import { kernelScriptPath, sandboxPythonPrefix, zygoteScriptPath } from './paths';
import type { HostUser } from './processLauncher';

const JOBS_INSIDE = '/tmp/.jobs';
const FIFOS_INSIDE = '/tmp/.fifos';
const READY_TIMEOUT_MS = 60_000;
/** The zygote's exit message can overtake the last bytes still in a kernel's FIFOs: give the readers a moment. */
const FIFO_DRAIN_MS = 25;

const messageSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('ready') }),
  z.object({ op: z.literal('started'), id: z.string(), pid: z.number().int() }),
  z.object({ op: z.literal('exited'), id: z.string(), code: z.number().int().nullable(), signal: z.string().nullable() }),
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
  exited: (exit: ProcessExit) => void;
}

/**
 * One warm Python (sandbox/zygote.py) inside bwrap that kernels fork from: a kernel costs a fork and a few mounts
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

  constructor(readonly jobsRoot: string, private readonly python: string, private readonly owner: HostUser | undefined, private readonly tmpMiB: number) {}

  /** Can a kernel for this work dir be forked here (it must sit directly in the jobs root)? */
  serves(workDir: string): boolean {
    return dirname(workDir) === this.jobsRoot;
  }

  async startKernel(req: ForkedKernelRequest): Promise<KernelStreams> {
    const proc = await this.ensureReady();
    const id = String(++this.nextId);
    const fifos = await this.makeFifos(id);
    const streams = openFifos(fifos.dir);
    let resolveExit!: (exit: ProcessExit) => void;
    const exited = new Promise<ProcessExit>((resolve) => (resolveExit = resolve));
    const started = new Promise<number>((resolve) => this.running.set(id, { started: resolve, exited: resolveExit }));
    exited.then(() => {
      this.running.delete(id);
      setTimeout(() => (streams.close(), rm(fifos.dir, { recursive: true, force: true }).catch(() => undefined)), FIFO_DRAIN_MS);
    });
    this.send(proc, { op: 'spawn', id, job: basename(req.workDir), fifos: id, env: req.env, rlimits: req.rlimits, tmpBytes: req.tmpBytes });
    const nsPid = await Promise.race([started, exited.then(() => 0)]);
    if (nsPid) {
      try {
        if (req.adopt) await req.adopt(await this.hostPidOf(nsPid));
        this.send(proc, { op: 'go', id });
      } catch (err) {
        this.send(proc, { op: 'kill', id });
        throw err;
      }
    }
    const delayedExit = exited.then((exit) => new Promise<ProcessExit>((r) => setTimeout(() => r(exit), FIFO_DRAIN_MS)));
    return { ...streams.kernel, kill: () => this.proc === proc && this.send(proc, { op: 'kill', id }), exited: delayedExit };
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
    const fifoRoot = await this.ensureFifoRoot();
    const env = { PATH: `${dirname(this.python)}:/usr/bin:/bin`, HOME: '/tmp', LANG: 'C.UTF-8', OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1', MPLBACKEND: 'Agg', MPLCONFIGDIR: '/tmp' };
    const args = bwrapArgs({
      workDir: this.jobsRoot,
      workDirInside: JOBS_INSIDE,
      readOnly: [sandboxPythonPrefix(this.python), kernelScriptPath, zygoteScriptPath],
      binds: [[fifoRoot, FIFOS_INSIDE]],
      dirs: ['/job'],
      tmpMiB: this.tmpMiB,
      env,
      keepCaps: ['CAP_SYS_ADMIN', 'CAP_SETPCAP'],
    });
    const proc = spawn(BWRAP, [...args, this.python, zygoteScriptPath], { stdio: ['pipe', 'pipe', 'pipe'], env: {}, ...(this.owner ?? {}) });
    this.proc = proc;
    proc.stdin.on('error', () => undefined);
    proc.stderr.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-4000)));
    const lines = createInterface({ input: proc.stdout });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the fork server was not ready within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
      proc.once('exit', (code, signal) => (clearTimeout(timer), reject(new Error(`the fork server exited during start-up (${signal ?? code}): ${this.stderrTail.trim().slice(-1000)}`))));
      lines.on('line', (line) => {
        const msg = messageSchema.safeParse(safeJson(line));
        if (!msg.success) return;
        if (msg.data.op === 'ready') (clearTimeout(timer), resolve());
        else if (msg.data.op === 'started') this.running.get(msg.data.id)?.started(msg.data.pid);
        else this.running.get(msg.data.id)?.exited({ code: msg.data.code, signal: msg.data.signal });
      });
    });
    proc.on('exit', () => this.onZygoteExit(proc));
    proc.unref();
    for (const s of [proc.stdin, proc.stdout, proc.stderr]) (s as unknown as { unref?: () => void }).unref?.();
    try {
      await ready;
      this.zygoteHostPid = await findZygote(proc.pid!);
    } catch (err) {
      proc.kill('SIGKILL');
      throw err;
    }
    return proc;
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

  private ensureFifoRoot(): Promise<string> {
    this.fifoRoot ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sheetbench-fifos-'));
      await chmod(dir, 0o711);
      return dir;
    })();
    return this.fifoRoot;
  }

  /** A private folder with the kernel's four FIFOs, owned by the sandbox uid. */
  private async makeFifos(id: string): Promise<{ dir: string }> {
    const dir = join(await this.ensureFifoRoot(), id);
    await mkdir(dir, { mode: 0o700 });
    await execFileAsync('/usr/bin/mkfifo', ['-m', '600', ...FIFO_NAMES.map((n) => join(dir, n))]);
    if (this.owner) await Promise.all([dir, ...FIFO_NAMES.map((n) => join(dir, n))].map((p) => chown(p, this.owner!.uid, this.owner!.gid)));
    return { dir };
  }

  /** Host pid of the zygote's child `nsPid` (its pid as the zygote sees it), from /proc's children lists and NSpid. */
  private async hostPidOf(nsPid: number): Promise<number> {
    const zygote = this.zygoteHostPid;
    const children = (await readFile(`/proc/${zygote}/task/${zygote}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean);
    for (const child of children) {
      const status = await readFile(`/proc/${child}/status`, 'utf8').catch(() => '');
      const nspids = /^NSpid:\s*(.+)$/m.exec(status)?.[1].trim().split(/\s+/);
      if (nspids && Number(nspids[nspids.length - 1]) === nsPid) return Number(child);
    }
    throw new Error(`fork server: kernel pid ${nsPid} not found among the zygote's children`);
  }
}

const FIFO_NAMES = ['in', 'out', 'err', 'reply'] as const;
const execFileAsync = promisify(execFile);

/**
 * The host's ends, opened O_RDWR so opening never blocks and a reader never sees EOF before the kernel opens its end
 * (end of a kernel is reported by the zygote, not by EOF).
 */
function openFifos(dir: string): { kernel: Omit<KernelStreams, 'kill' | 'exited'>; close: () => void } {
  const open = (name: string, hostWrites: boolean) =>
    // A socket on an O_RDWR fd would also read what it writes: each end gets exactly one direction.
    new Socket({ fd: openSync(join(dir, name), constants.O_RDWR | constants.O_NONBLOCK), readable: !hostWrites, writable: hostWrites });
  const [stdin, stdout, stderr, replies] = FIFO_NAMES.map((name) => open(name, name === 'in'));
  for (const s of [stdin, stdout, stderr, replies]) s.on('error', () => undefined);
  return {
    kernel: { stdin, stdout, stderr, replies },
    close: () => [stdin, stdout, stderr, replies].forEach((s) => s.destroy()),
  };
}

/** bwrap (outer) → bwrap as the pid namespace's init → the zygote: the first descendant that is not bwrap. */
async function findZygote(bwrapPid: number): Promise<number> {
  let level = [bwrapPid];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: number[] = [];
    for (const pid of level) {
      const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (comm !== 'bwrap' && cmdline.includes('zygote.py')) return pid;
      const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
      next.push(...children.trim().split(/\s+/).filter(Boolean).map(Number));
    }
    level = next;
  }
  throw new Error('fork server: the zygote process was not found under bwrap');
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
