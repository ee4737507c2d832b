import { SandboxAbortedError, SandboxLostError } from './errors';
import { readWorkDirFile, writeWorkDirFile } from './hostFiles';
import {
  JsonLinesKernel,
  KernelExitedError,
  type CellReply,
  type KernelProcess,
  type KernelStreams,
} from './kernelProcess';
import type { Launcher } from './launcher';
import { OutputCollector } from './outputCollector';
import type { ExecutionResult, Sandbox, SandboxLanguage, SandboxLimits } from './types';
import { changedFiles, snapshotDir } from './workDirSnapshot';

/** After the soft (in-kernel) timeout, how long before the process is killed. */
const HARD_KILL_GRACE_MS = 2000;
const KERNEL_READY_TIMEOUT_MS = 15_000;
/** Imported in the background once a kernel is up, so the first real cell does not pay ~1 s for them. */
export const WARM_MODULES = ['pandas', 'openpyxl'];

export interface KernelSandboxOptions {
  workDir: string;
  language: SandboxLanguage;
  limits: SandboxLimits;
  defaultTimeoutMs: number;
  warmModules?: string[];
}

type KillReason = 'timeout' | 'abort' | null;

/** A Sandbox on any Launcher: persistent Python kernel (respawned after a hard kill) or one `node` process per run. */
export class KernelSandbox implements Sandbox {
  private kernel: Promise<KernelProcess> | null = null;
  private busy = false;
  private disposed = false;

  private constructor(
    private readonly launcher: Launcher,
    private readonly opts: KernelSandboxOptions,
  ) {}

  static async create(launcher: Launcher, opts: KernelSandboxOptions): Promise<KernelSandbox> {
    const sandbox = new KernelSandbox(launcher, opts);
    if (opts.language === 'python') {
      try {
        await sandbox.ensureKernel();
      } catch (err) {
        await launcher.dispose();
        throw err;
      }
    }
    return sandbox;
  }

  get backend() {
    return this.launcher.backend;
  }

  get workDirInside() {
    return this.launcher.workDirInside;
  }

  async execute(code: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ExecutionResult> {
    if (this.disposed) throw new SandboxLostError('sandbox was disposed');
    if (this.busy) throw new Error('sandbox is busy: executions must not overlap');
    if (opts.signal?.aborted) throw new SandboxAbortedError(opts.signal.reason);
    this.busy = true;
    try {
      const timeoutMs = opts.timeoutMs ?? this.opts.defaultTimeoutMs;
      const before = await snapshotDir(this.opts.workDir);
      const started = performance.now();
      const run =
        this.opts.language === 'node'
          ? this.runNode(String(code), timeoutMs, opts.signal)
          : this.runPython(String(code), timeoutMs, opts.signal);
      const partial = await run;
      const files = changedFiles(before, await snapshotDir(this.opts.workDir));
      return { ...partial, files, durationMs: performance.now() - started };
    } finally {
      this.busy = false;
    }
  }

  async writeFile(relPath: string, data: Buffer | string): Promise<void> {
    await this.launcher.adoptPath(await writeWorkDirFile(this.opts.workDir, relPath, data));
  }

  readFile(relPath: string): Promise<Buffer> {
    return readWorkDirFile(this.opts.workDir, relPath);
  }

  async reset(): Promise<void> {
    await this.stopKernel();
    if (this.opts.language === 'python') await this.ensureKernel();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.stopKernel();
    await this.launcher.dispose();
  }

  private async runPython(
    code: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Omit<ExecutionResult, 'files' | 'durationMs'>> {
    const kernel = await this.ensureKernel();
    let reason: KillReason = null;
    const kill = (why: KillReason) => ((reason = why), kernel.kill());
    const timer = setTimeout(() => kill('timeout'), timeoutMs + HARD_KILL_GRACE_MS);
    const onAbort = () => kill('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const reply = await kernel.exec({
        code,
        timeoutSec: timeoutMs / 1000,
        maxOutput: this.opts.limits.maxOutputBytes,
      });
      return fromReply(reply);
    } catch (err) {
      if (!(err instanceof KernelExitedError))
        throw new SandboxLostError(`kernel protocol failed: ${(err as Error).message}`, { cause: err });
      this.kernel = null;
      this.respawnInBackground();
      if (reason === 'abort') throw new SandboxAbortedError(signal?.reason);
      return this.deathResult(err, reason, timeoutMs);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async deathResult(
    err: KernelExitedError,
    reason: KillReason,
    timeoutMs: number,
  ): Promise<Omit<ExecutionResult, 'files' | 'durationMs'>> {
    const cause =
      reason === 'timeout'
        ? `hard timeout: the code ignored the ${timeoutMs / 1000} s interrupt and was killed`
        : (await this.launcher.oomKilled())
          ? 'the kernel was killed by the memory limit'
          : `the kernel process died (${err.exit.signal ? `signal ${err.exit.signal}` : `exit code ${err.exit.code}`})`;
    return {
      stdout: err.partialStdout,
      stderr: err.partialStderr,
      error: `${cause}; the kernel was restarted and all variables from earlier executions are lost.`,
      timedOut: reason === 'timeout',
      stateReset: true,
      exitCode: err.exit.code ?? 137,
      truncated: false,
    };
  }

  private async runNode(
    code: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Omit<ExecutionResult, 'files' | 'durationMs'>> {
    const proc = await this.startOrLose(() => this.launcher.startNode());
    const out = new OutputCollector(proc.stdout, this.opts.limits.maxOutputBytes);
    const err = new OutputCollector(proc.stderr, this.opts.limits.maxOutputBytes);
    let reason: KillReason = null;
    const kill = (why: KillReason) => ((reason = why), proc.kill());
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    const onAbort = () => kill('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    proc.stdin.on('error', () => undefined);
    proc.stdin.end(code);
    const exit = await proc.exited.finally(() => (clearTimeout(timer), signal?.removeEventListener('abort', onAbort)));
    await new Promise((r) => setImmediate(r)); // let the last pipe chunks land
    if (reason === 'abort') throw new SandboxAbortedError(signal?.reason);
    const [stdout, stderr] = [out.drain(), err.drain()];
    const failed = exit.code !== 0;
    const error =
      reason === 'timeout'
        ? `TimeoutError: execution exceeded ${timeoutMs / 1000} s and was killed`
        : failed
          ? stderr.text.trim().slice(-4000) || `node exited with ${exit.signal ?? exit.code}`
          : '';
    return {
      stdout: stdout.text,
      stderr: stderr.text,
      error,
      timedOut: reason === 'timeout',
      stateReset: false,
      exitCode: exit.code ?? 137,
      truncated: stdout.truncated || stderr.truncated,
    };
  }

  private ensureKernel(): Promise<KernelProcess> {
    this.kernel ??= this.spawnKernel();
    return this.kernel;
  }

  /**
   * Starts the kernel, again (every 250 ms, for up to 5 s) while bubblewrap cannot create its namespaces for want of a
   * moment's resources: right after a fork bomb, the sandbox uid's processes still exiting count against its limits
   * (EAGAIN, "Resource temporarily unavailable"). Any other failure is reported at once.
   */
  private async spawnKernel(): Promise<KernelProcess> {
    const started = Date.now();
    for (;;) {
      try {
        return await this.spawnKernelOnce();
      } catch (err) {
        if (!isTransientStartFailure(err) || Date.now() - started > TRANSIENT_START_RETRY_MS) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  private async spawnKernelOnce(): Promise<KernelProcess> {
    const streams = await this.startOrLose(() => this.launcher.startKernel());
    try {
      const kernel = await JsonLinesKernel.start(streams, {
        readyTimeoutMs: KERNEL_READY_TIMEOUT_MS,
        maxOutput: this.opts.limits.maxOutputBytes,
      });
      const warm = this.opts.warmModules ?? WARM_MODULES;
      if (warm.length) kernel.warm(warm);
      return kernel;
    } catch (err) {
      const detail = err instanceof KernelExitedError ? `${err.message}: ${err.partialStderr}` : (err as Error).message;
      throw new SandboxLostError(`${this.backend} kernel failed to start: ${detail}`, { cause: err });
    }
  }

  private respawnInBackground(): void {
    if (this.disposed) return;
    const respawn = this.spawnKernel();
    this.kernel = respawn;
    // A failed respawn is retried (and reported as SandboxLostError if it fails again) by the next execute().
    respawn.catch(() => this.kernel === respawn && (this.kernel = null));
  }

  private async startOrLose(start: () => Promise<KernelStreams>): Promise<KernelStreams> {
    try {
      return await start();
    } catch (err) {
      throw new SandboxLostError(`${this.backend} sandbox process could not start: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  private async stopKernel(): Promise<void> {
    const pending = this.kernel;
    this.kernel = null;
    const kernel = await pending?.catch(() => null); // a kernel that failed to start was reported to whoever awaited it; nothing to stop
    if (!kernel) return;
    kernel.kill();
    await kernel.exited;
  }
}

function fromReply(reply: CellReply): Omit<ExecutionResult, 'files' | 'durationMs'> {
  const stdout =
    reply.result === null
      ? reply.stdout
      : `${reply.stdout}${reply.stdout && !reply.stdout.endsWith('\n') ? '\n' : ''}${reply.result}\n`;
  return {
    stdout,
    stderr: reply.stderr,
    error: reply.error,
    timedOut: reply.timedOut,
    stateReset: false,
    exitCode: 0,
    truncated: reply.truncated,
  };
}

/** How long a kernel start is retried while namespaces cannot be created for a moment (see spawnKernel). */
const TRANSIENT_START_RETRY_MS = 5_000;

function isTransientStartFailure(err: unknown): boolean {
  const cause = err instanceof Error ? err.cause : undefined;
  return cause instanceof KernelExitedError && /Resource temporarily unavailable/.test(cause.partialStderr);
}
