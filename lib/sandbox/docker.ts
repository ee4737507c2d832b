import type Docker from 'dockerode';
import { chown } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { SandboxUnavailableError } from './errors';
import { chownTree } from './hostFiles';
import type { KernelStreams, ProcessExit } from './kernelProcess';
import { sandboxEnv, type Launcher } from './launcher';
import { kernelScriptPath } from './paths';
import type { SandboxLimits } from './types';

const KERNEL_IN_IMAGE = '/opt/sheetbench/kernel.py';
const CONTAINER_USER = { uid: 1000, gid: 1000 };

/** dockerode (and ssh2 under it) is loaded on first use: most processes never talk to Docker (0.25 CPU-s saved each). */
async function client(socketPath?: string): Promise<Docker> {
  const { default: DockerClient } = await import('dockerode');
  return socketPath ? new DockerClient({ socketPath, timeout: 30_000 }) : new DockerClient();
}

/** Cheap probe (fails in ~30 ms without an engine): does a Docker Engine answer `GET /_ping`? */
export async function dockerAvailable(socketPath?: string): Promise<{ ok: boolean; reason: string }> {
  try {
    await (await client(socketPath)).ping();
    return { ok: true, reason: '' };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

/** Container options (docs §8): no network, memory = swap limit, 1 CPU, pids limit, read-only root, no capabilities. */
export function kernelContainerOptions(opts: {
  image: string;
  workDir: string;
  limits: SandboxLimits;
}): Docker.ContainerCreateOptions {
  const { limits } = opts;
  const env = sandboxEnv({ home: '/tmp', pathDirs: [] });
  return {
    Image: opts.image,
    Cmd: ['python3', KERNEL_IN_IMAGE, '1'],
    User: `${CONTAINER_USER.uid}:${CONTAINER_USER.gid}`,
    WorkingDir: '/job',
    NetworkDisabled: true,
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    Labels: { 'sheetbench.sandbox': '1' },
    OpenStdin: true,
    StdinOnce: false,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: {
      NetworkMode: 'none',
      Memory: limits.memoryMiB * 1024 * 1024,
      MemorySwap: limits.memoryMiB * 1024 * 1024,
      NanoCpus: 1e9,
      PidsLimit: limits.maxProcesses,
      Binds: [`${opts.workDir}:/job:rw`, `${kernelScriptPath}:${KERNEL_IN_IMAGE}:ro`],
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,size=${limits.tmpMiB}m,mode=1777` },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
      Ulimits: [{ Name: 'fsize', Soft: limits.maxFileMiB * 1024 * 1024, Hard: limits.maxFileMiB * 1024 * 1024 }],
    },
  };
}

/**
 * One container per kernel: the REPL is the container's main process (stdin attached, protocol on stdout, all user
 * output on stderr), because the Docker API cannot kill an exec'd process (moby#9098). A hard kill kills the container;
 * the respawned kernel gets a new one over the same bind-mounted work dir.
 */
export class DockerLauncher implements Launcher {
  readonly backend = 'docker' as const;
  readonly workDirInside = '/job';
  private container: Docker.Container | null = null;

  private constructor(
    private readonly docker: Docker,
    private readonly opts: { workDir: string; limits: SandboxLimits; image: string },
  ) {}

  static async create(opts: {
    workDir: string;
    limits: SandboxLimits;
    image: string;
    socketPath?: string;
  }): Promise<DockerLauncher> {
    if (process.getuid?.() === 0) await chownTree(opts.workDir, CONTAINER_USER);
    return new DockerLauncher(await client(opts.socketPath), opts);
  }

  async startKernel(): Promise<KernelStreams> {
    await this.removeContainer();
    const container = await this.docker.createContainer(kernelContainerOptions(this.opts));
    this.container = container;
    const stream = await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
    const replies = new PassThrough();
    const stderr = new PassThrough();
    container.modem.demuxStream(stream, replies, stderr);
    stream.on('end', () => (replies.end(), stderr.end()));
    await container.start();
    const exited: Promise<ProcessExit> = container.wait().then(
      (r: { StatusCode: number }) => ({ code: r.StatusCode, signal: r.StatusCode === 137 ? 'SIGKILL' : null }),
      () => ({ code: null, signal: 'SIGKILL' }),
    );
    return {
      stdin: stream,
      replies,
      stdout: null,
      stderr,
      kill: () => void container.kill().catch(() => undefined), // a container already stopped has nothing to kill
      exited,
    };
  }

  startNode(): Promise<KernelStreams> {
    return Promise.reject(
      new SandboxUnavailableError('language "node" is not implemented for the docker backend yet (use bwrap)'),
    );
  }

  async adoptPath(hostPath: string): Promise<void> {
    if (process.getuid?.() === 0) await chown(hostPath, CONTAINER_USER.uid, CONTAINER_USER.gid);
  }

  async oomKilled(): Promise<boolean> {
    const info = await this.container?.inspect().catch(() => null); // a container already removed has no state to read
    return info?.State?.OOMKilled ?? false;
  }

  dispose(): Promise<void> {
    return this.removeContainer();
  }

  private async removeContainer(): Promise<void> {
    const container = this.container;
    this.container = null;
    if (!container) return;
    await container.remove({ force: true }).catch(() => undefined); // force also kills a still-running kernel
  }
}
