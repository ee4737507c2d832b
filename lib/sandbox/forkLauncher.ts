import { closeSync, openSync, write } from 'node:fs';
import { lchown } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createSandboxCgroup, killQuietly, type SandboxCgroup } from './cgroup';
import type { ForkServer } from './forkServer';
import { chownTree } from './hostFiles';
import type { KernelStreams } from './kernelProcess';
import { sandboxEnv, type Launcher } from './launcher';
import { processRlimits } from './limits';
import { ProcessLauncher, sandboxHostUser } from './processLauncher';
import { pythonInside, type SandboxRuntime } from './runtime';
import type { SandboxLimits } from './types';

interface ForkLauncherOptions {
  workDir: string;
  runtime: SandboxRuntime;
  limits: SandboxLimits;
}

/**
 * A bwrap sandbox whose Python kernel is forked from the warm fork server instead of started: same work dir at /job,
 * same limits (its own cgroup, joined before any of its code runs; the same rlimits), same kernel protocol.
 * `node` still starts as its own bwrap process.
 */
export class ForkLauncher implements Launcher {
  readonly backend = 'bwrap' as const;
  readonly workDirInside = '/job';
  private readonly owner = sandboxHostUser();
  private readonly kernels = new Set<KernelStreams>();
  private nodeLauncher: Promise<ProcessLauncher> | null = null;

  private constructor(
    private readonly server: ForkServer,
    private readonly opts: ForkLauncherOptions,
    private readonly cgroup: SandboxCgroup | null,
  ) {}

  static async create(server: ForkServer, opts: ForkLauncherOptions): Promise<ForkLauncher> {
    const owner = sandboxHostUser();
    if (owner) await chownTree(opts.workDir, owner);
    return new ForkLauncher(server, opts, await createSandboxCgroup(opts.limits, owner));
  }

  async startKernel(): Promise<KernelStreams> {
    const { limits, runtime } = this.opts;
    const cgroup = this.cgroup;
    // A restarted kernel joins the group its predecessor's tree is still leaving (a hard-killed kernel, a fork bomb's
    // children): until they are gone they count against pids.max, and the new kernel's own forks fail with EAGAIN.
    if (cgroup && this.kernels.size === 0) await cgroup.settle(SETTLE_MS);
    const streams = await this.server.startKernel({
      workDir: this.opts.workDir,
      env: sandboxEnv({ home: '/tmp', pathDirs: [dirname(pythonInside(runtime.python).python)] }),
      rlimits: processRlimits(limits, {
        cgroup: cgroup !== null,
        dedicatedUid: this.owner !== undefined,
        addressSpace: true,
      }),
      tmpBytes: limits.tmpMiB * 1024 * 1024,
      adopt: cgroup ? (pid) => joinCgroup(cgroup, pid) : undefined,
    });
    this.kernels.add(streams);
    void streams.exited.then(() => (this.kernels.delete(streams), this.killLeftovers()));
    return streams;
  }

  startNode(): Promise<KernelStreams> {
    this.nodeLauncher ??= ProcessLauncher.create({
      backend: 'bwrap',
      workDir: this.opts.workDir,
      runtime: this.opts.runtime,
      limits: this.opts.limits,
    });
    return this.nodeLauncher.then((l) => l.startNode());
  }

  async adoptPath(hostPath: string): Promise<void> {
    if (this.owner) await lchown(hostPath, this.owner.uid, this.owner.gid);
  }

  async oomKilled(): Promise<boolean> {
    return (await this.cgroup?.oomKilled()) ?? false;
  }

  async dispose(): Promise<void> {
    for (const kernel of this.kernels) kernel.kill();
    await this.killLeftovers();
    await Promise.all([...this.kernels].map((k) => k.exited));
    await this.cgroup?.remove();
    await (await this.nodeLauncher?.catch(() => null))?.dispose(); // a launcher that never started has nothing to dispose
  }

  private async killLeftovers(): Promise<void> {
    for (const pid of (await this.cgroup?.pids()) ?? []) killQuietly(pid);
  }
}

/** How long a kernel start waits for the leftovers of the one before to leave the cgroup. */
const SETTLE_MS = 5_000;

/**
 * The pid is written through the thread pool, unlike the other cgroup calls (cgroup.ts): moving a process into a group
 * can wait in the kernel, and a synchronous write held the worker's event loop that long. Measured in a loaded run
 * (bench/reply-to-cache.ts, load average 12 on 2 cores, 240 kernels, cgroup v1): the memory group's write p99 33 ms,
 * max 60 ms, 1.34 s of a 20 s run; the pids and cpu groups' writes, the opens and closes under 1 ms. Every write goes
 * through the pool (which group waits may differ by host); opens and closes stay synchronous: one round trip per file.
 */
async function joinCgroup(cgroup: SandboxCgroup, pid: number): Promise<void> {
  await Promise.all(cgroup.procsFiles.map((file) => writePid(file, String(pid))));
}

function writePid(file: string, pid: string): Promise<void> {
  const fd = openSync(file, 'w');
  return new Promise<void>((resolve, reject) => write(fd, pid, (err) => (err ? reject(err) : resolve()))).finally(() =>
    closeSync(fd),
  );
}
