import { spawn, type ChildProcess } from 'node:child_process';
import { lchown } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { bwrapArgs, BWRAP } from './bwrap';
import { createSandboxCgroup, killQuietly, type SandboxCgroup } from './cgroup';
import type { KernelStreams, ProcessExit } from './kernelProcess';
import { sandboxEnv, type Launcher } from './launcher';
import { chownTree } from './hostFiles';
import { processRlimits } from './limits';
import { PassThrough } from './passThrough';
import { assertReachableBy, type HostUser } from './reachable';
import { INSIDE, nodeInside, pythonInside, runtimeHostPaths, type Bind, type SandboxRuntime } from './runtime';
import type { SandboxLimits } from './types';

export type { HostUser } from './reachable';

/** Unprivileged host uid bwrap runs as when the worker is root (docs §3: as root, 0600 root files stay readable). */
export function sandboxHostUser(): HostUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = Number(process.env.SHEETBENCH_SANDBOX_UID || 65534);
  return { uid: id, gid: Number(process.env.SHEETBENCH_SANDBOX_GID || id) };
}

/** Joins the cgroups given before `--` and exec's the rest, so every descendant is limited from its first instruction. */
const CGROUP_JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 97; shift; done; shift; exec "$@"';

export interface ProcessLauncherOptions {
  backend: 'bwrap' | 'unsafe';
  workDir: string;
  runtime: SandboxRuntime;
  limits: SandboxLimits;
}

/** Runs sandboxed processes as children of this worker: through bwrap, or (explicit opt-in only) unsandboxed. */
export class ProcessLauncher implements Launcher {
  readonly backend: 'bwrap' | 'unsafe';
  readonly workDirInside: string;
  private readonly owner = sandboxHostUser();
  private readonly children = new Set<ChildProcess>();

  private constructor(
    private readonly opts: ProcessLauncherOptions,
    private readonly cgroup: SandboxCgroup | null,
    private readonly passThrough: PassThrough,
  ) {
    this.backend = opts.backend;
    this.workDirInside = opts.backend === 'bwrap' ? '/job' : opts.workDir;
  }

  static async create(opts: ProcessLauncherOptions): Promise<ProcessLauncher> {
    const owner = opts.backend === 'bwrap' ? sandboxHostUser() : undefined;
    if (owner) {
      await assertRuntimeReachable(opts.runtime, owner, { zygote: false });
      await chownTree(opts.workDir, owner);
    }
    const passThrough = await PassThrough.prepare(
      [...bindSources(opts.runtime).map(([host]) => host), opts.workDir],
      owner,
    );
    const cgroup = await createSandboxCgroup(opts.limits, owner);
    return new ProcessLauncher(opts, cgroup, passThrough);
  }

  startKernel(): Promise<KernelStreams> {
    const { runtime } = this.opts;
    const argv = this.bwrapped
      ? [pythonInside(runtime.python).python, INSIDE.kernel, '3']
      : [runtime.python, runtime.kernel, '3'];
    return this.spawn(argv, { addressSpace: true });
  }

  startNode(): Promise<KernelStreams> {
    // V8 reserves far more address space than it uses, so RLIMIT_AS would stop node from starting.
    return this.spawn([this.bwrapped ? nodeInside().node : process.execPath, '-'], { addressSpace: false });
  }

  private get bwrapped(): boolean {
    return this.opts.backend === 'bwrap';
  }

  async adoptPath(hostPath: string): Promise<void> {
    if (this.owner) await lchown(hostPath, this.owner.uid, this.owner.gid);
  }

  async oomKilled(): Promise<boolean> {
    return (await this.cgroup?.oomKilled()) ?? false;
  }

  async dispose(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    await Promise.all([...this.children].map((c) => exitOf(c)));
    await this.cgroup?.remove();
  }

  /** Whether limits come from a cgroup (memory, pids, cpu) or only from rlimits. */
  get limitMechanism(): 'cgroup' | 'rlimit' {
    return this.cgroup ? 'cgroup' : 'rlimit';
  }

  private async spawn(argv: string[], opts: { addressSpace: boolean }): Promise<KernelStreams> {
    const python = this.bwrapped ? pythonInside(this.opts.runtime.python).python : this.opts.runtime.python;
    const env = sandboxEnv({ home: this.bwrapped ? '/tmp' : this.opts.workDir, pathDirs: [dirname(python)] });
    const inner = this.bwrapped ? [BWRAP, ...this.bwrapArgs(env), ...argv] : argv;
    const command = this.passThrough.wrap([
      ...this.cgroupPrefix(),
      '/usr/bin/prlimit',
      ...this.rlimitArgs(opts.addressSpace),
      ...inner,
    ]);
    // Passed through, the command starts as root (to mount) and drops to the sandbox's uid itself.
    const passed = this.passThrough.active;
    const child = spawn(command[0], command.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      cwd: passed ? '/' : this.opts.workDir,
      env: this.opts.backend === 'bwrap' ? {} : env,
      ...(this.owner && this.opts.backend === 'bwrap' && !passed ? this.owner : {}),
    });
    this.children.add(child);
    const exited = exitOf(child).then(async (exit) => {
      this.children.delete(child);
      await this.killLeftovers();
      return exit;
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    return {
      stdin: child.stdin,
      replies: child.stdio[3] as Readable,
      stdout: child.stdout,
      stderr: child.stderr,
      kill: () => child.kill('SIGKILL'),
      exited,
    };
  }

  private bwrapArgs(env: Record<string, string>): string[] {
    const readOnly = bindSources(this.opts.runtime).map(([host, inside]): Bind => [
      this.passThrough.path(host),
      inside,
    ]);
    return bwrapArgs({
      workDir: this.passThrough.path(this.opts.workDir),
      workDirInside: this.workDirInside,
      readOnly,
      tmpMiB: this.opts.limits.tmpMiB,
      env,
    });
  }

  private cgroupPrefix(): string[] {
    return this.cgroup ? ['/bin/sh', '-c', CGROUP_JOIN, 'sh', ...this.cgroup.procsFiles, '--'] : [];
  }

  private rlimitArgs(addressSpace: boolean): string[] {
    const rlimits = processRlimits(this.opts.limits, {
      cgroup: this.cgroup !== null,
      dedicatedUid: this.owner !== undefined,
      addressSpace,
    });
    return [...Object.entries(rlimits).map(([name, value]) => `--${name}=${value}`), '--'];
  }

  /** Background processes the code started may outlive the kernel: the cgroup knows them all. */
  private async killLeftovers(): Promise<void> {
    for (const pid of (await this.cgroup?.pids()) ?? []) killQuietly(pid);
  }
}

function exitOf(child: ChildProcess): Promise<ProcessExit> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The read-only binds of a kernel or node sandbox: the Python environment, the kernel script, node (host → inside). */
function bindSources(runtime: SandboxRuntime): Bind[] {
  return [...pythonInside(runtime.python).binds, [runtime.kernel, INSIDE.kernel], ...nodeInside().binds];
}

/**
 * The environment and the kernel scripts must be readable by the sandbox's uid (their own mode bits: a folder above
 * one that it may not enter is passed through, see passThrough.ts).
 */
export async function assertRuntimeReachable(
  runtime: SandboxRuntime,
  owner: HostUser,
  opts: { zygote: boolean },
): Promise<void> {
  for (const { path, what } of runtimeHostPaths(runtime, opts))
    await assertReachableBy(path, owner, what, { read: true, ancestors: false });
}
