import { spawn, type ChildProcess } from 'node:child_process';
import { lchown, lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { bwrapArgs, BWRAP, nodeBinDir } from './bwrap';
import { createSandboxCgroup, killQuietly, type SandboxCgroup } from './cgroup';
import type { KernelStreams, ProcessExit } from './kernelProcess';
import { sandboxEnv, type Launcher } from './launcher';
import { chownTree } from './hostFiles';
import { kernelScriptPath, sandboxPythonPrefix } from './paths';
import { processRlimits } from './limits';
import type { SandboxLimits } from './types';

export interface HostUser {
  uid: number;
  gid: number;
}

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
  python: string;
  limits: SandboxLimits;
}

/** Runs sandboxed processes as children of this worker: through bwrap, or (explicit opt-in only) unsandboxed. */
export class ProcessLauncher implements Launcher {
  readonly backend: 'bwrap' | 'unsafe';
  readonly workDirInside: string;
  private readonly owner = sandboxHostUser();
  private readonly children = new Set<ChildProcess>();

  private constructor(private readonly opts: ProcessLauncherOptions, private readonly cgroup: SandboxCgroup | null) {
    this.backend = opts.backend;
    this.workDirInside = opts.backend === 'bwrap' ? '/job' : opts.workDir;
  }

  static async create(opts: ProcessLauncherOptions): Promise<ProcessLauncher> {
    const owner = opts.backend === 'bwrap' ? sandboxHostUser() : undefined;
    if (owner) {
      await assertReachableBy(opts.workDir, owner);
      await chownTree(opts.workDir, owner);
    }
    const cgroup = await createSandboxCgroup(opts.limits, owner);
    return new ProcessLauncher(opts, cgroup);
  }

  startKernel(): Promise<KernelStreams> {
    return this.spawn([this.opts.python, kernelScriptPath, '3'], { addressSpace: true });
  }

  startNode(): Promise<KernelStreams> {
    // V8 reserves far more address space than it uses, so RLIMIT_AS would stop node from starting.
    return this.spawn([process.execPath, '-'], { addressSpace: false });
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
    const env = sandboxEnv({ home: this.opts.backend === 'bwrap' ? '/tmp' : this.opts.workDir, pathDirs: [dirname(this.opts.python)] });
    const inner = this.opts.backend === 'bwrap' ? [BWRAP, ...this.bwrapArgs(env), ...argv] : argv;
    const command = [...this.cgroupPrefix(), '/usr/bin/prlimit', ...this.rlimitArgs(opts.addressSpace), ...inner];
    const child = spawn(command[0], command.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      cwd: this.opts.workDir,
      env: this.opts.backend === 'bwrap' ? {} : env,
      ...(this.owner && this.opts.backend === 'bwrap' ? this.owner : {}),
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
      stdin: child.stdin!,
      replies: child.stdio[3] as Readable,
      stdout: child.stdout,
      stderr: child.stderr,
      kill: () => child.kill('SIGKILL'),
      exited,
    };
  }

  private bwrapArgs(env: Record<string, string>): string[] {
    const readOnly = [sandboxPythonPrefix(this.opts.python), kernelScriptPath, nodeBinDir()];
    return bwrapArgs({ workDir: this.opts.workDir, workDirInside: this.workDirInside, readOnly, tmpMiB: this.opts.limits.tmpMiB, env });
  }

  private cgroupPrefix(): string[] {
    return this.cgroup ? ['/bin/sh', '-c', CGROUP_JOIN, 'sh', ...this.cgroup.procsFiles, '--'] : [];
  }

  private rlimitArgs(addressSpace: boolean): string[] {
    const rlimits = processRlimits(this.opts.limits, { cgroup: this.cgroup !== null, dedicatedUid: this.owner !== undefined, addressSpace });
    return [...Object.entries(rlimits).map(([name, value]) => `--${name}=${value}`), '--'];
  }

  /** Background processes the code started may outlive the kernel: the cgroup knows them all. */
  private async killLeftovers(): Promise<void> {
    for (const pid of (await this.cgroup?.pids()) ?? []) killQuietly(pid);
  }
}

function exitOf(child: ChildProcess): Promise<ProcessExit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** bwrap opens the work dir as the sandbox uid, so every ancestor must be searchable by it. */
export async function assertReachableBy(dir: string, owner: HostUser): Promise<void> {
  for (let p = dirname(dir); ; p = dirname(p)) {
    const info = await lstat(p);
    const searchable = info.uid === owner.uid ? info.mode & 0o100 : info.gid === owner.gid ? info.mode & 0o010 : info.mode & 0o001;
    if (!searchable) throw new Error(`sandbox work dir ${dir} is not reachable by uid ${owner.uid}: ${p} has mode ${(info.mode & 0o777).toString(8)} (needs o+x)`);
    if (p === '/') return;
  }
}
