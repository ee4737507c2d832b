import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SandboxConfig } from '../../config/schema';
import { probeBwrap } from './bwrap';
import { dockerAvailable, DockerLauncher } from './docker';
import { SandboxUnavailableError } from './errors';
import { KernelSandbox } from './kernelSandbox';
import type { Launcher } from './launcher';
import { DEFAULT_LIMITS, limitsFromConfig, resolveLimits } from './limits';
import { ForkLauncher } from './forkLauncher';
import { ForkServer } from './forkServer';
import { defaultWorkRoot } from './paths';
import { assertRuntimeReachable, ProcessLauncher, sandboxHostUser } from './processLauncher';
import { assertRuntimeInstalled, defaultRuntime, type SandboxRuntime } from './runtime';
import type { Sandbox, SandboxBackendName, SandboxFactory, SandboxOptions } from './types';

export { SandboxAbortedError, SandboxLostError, SandboxSetupError, SandboxUnavailableError } from './errors';
export { sandboxPythonPath } from './paths';
export { defaultRuntime, INSIDE, type SandboxRuntime } from './runtime';

/** Before work starts: the runtime is installed and, when the sandbox runs as another uid, within its reach (fast: stats only). */
export async function checkSandboxRuntime(runtime: SandboxRuntime = defaultRuntime()): Promise<void> {
  assertRuntimeInstalled(runtime);
  const owner = sandboxHostUser();
  if (owner) await assertRuntimeReachable(runtime, owner, { zygote: true });
}
export type * from './types';

export type FactoryConfig = Pick<
  SandboxConfig,
  'backend' | 'executionTimeoutMs' | 'memoryMiB' | 'maxProcesses' | 'dockerImage'
> &
  Partial<Pick<SandboxConfig, 'workRoot' | 'forkServer'>>;

/** Extra knobs for tests and benchmarks. */
export interface FactoryExtras {
  /** Modules the kernel imports in the background after start (default pandas, openpyxl; [] for none). */
  warmModules?: string[];
  /** Docker Engine socket (default /var/run/docker.sock or DOCKER_HOST). */
  dockerSocketPath?: string;
  /** The Python environment and kernel scripts on the host (default: the checkout's; tests place copies elsewhere). */
  runtime?: SandboxRuntime;
}

/**
 * Picks the backend once, at start-up. auto: Docker if an engine answers `ping`, else bwrap if a hardened
 * `bwrap … /usr/bin/true` works, else an error. `unsafe` (no isolation) only when asked for by name.
 */
export async function createSandboxFactory(config: FactoryConfig, extras: FactoryExtras = {}): Promise<SandboxFactory> {
  const runtime = extras.runtime ?? defaultRuntime();
  const backend = await chooseBackend(config.backend, extras);
  if (backend === 'unsafe') warnUnsafe();
  if (backend !== 'docker') assertRuntimeInstalled(runtime);
  return new LauncherFactory(
    backend,
    config,
    { ...extras, runtime },
    backend === 'bwrap' && config.forkServer !== false ? forkServerFor(config, runtime) : null,
  );
}

function forkServerFor(config: FactoryConfig, runtime: SandboxRuntime): ForkServer {
  return new ForkServer(
    resolve(config.workRoot ?? defaultWorkRoot()),
    runtime,
    sandboxHostUser(),
    DEFAULT_LIMITS.tmpMiB,
  );
}

async function chooseBackend(wanted: FactoryConfig['backend'], extras: FactoryExtras): Promise<SandboxBackendName> {
  if (wanted === 'unsafe') return 'unsafe';
  if (wanted === 'docker' || wanted === 'auto') {
    const docker = await dockerAvailable(extras.dockerSocketPath);
    if (docker.ok) return 'docker';
    if (wanted === 'docker')
      throw new SandboxUnavailableError(`docker backend requested but the engine does not answer: ${docker.reason}`);
  }
  const bwrap = await probeBwrap(sandboxHostUser());
  if (bwrap.ok) return 'bwrap';
  throw new SandboxUnavailableError(
    `no sandbox backend works here: bwrap probe failed (${bwrap.reason})${wanted === 'auto' ? ' and no Docker engine answers' : ''}. ` +
      'Install bubblewrap (scripts/setup.sh) or, only for trusted code, choose the backend "unsafe".',
  );
}

function warnUnsafe(): void {
  process.stderr.write(
    '\n!!! WARNING: sandbox backend "unsafe" runs generated code WITHOUT ISOLATION as an ordinary subprocess.\n' +
      '!!! It can read and write your files, reach the network and see answer files. Use only with trusted code.\n\n',
  );
}

class LauncherFactory implements SandboxFactory {
  constructor(
    readonly backend: SandboxBackendName,
    private readonly config: FactoryConfig,
    private readonly extras: FactoryExtras & { runtime: SandboxRuntime },
    private readonly forkServer: ForkServer | null,
  ) {}

  async create(opts: SandboxOptions): Promise<Sandbox> {
    mkdirSync(opts.workDir, { recursive: true }); // synchronous: one metadata call, cheaper than a thread-pool round trip
    const limits = resolveLimits(limitsFromConfig(this.config), opts.limits);
    const launcher = await this.launcher(opts.workDir, limits);
    return KernelSandbox.create(launcher, {
      workDir: opts.workDir,
      language: opts.language ?? 'python',
      limits,
      defaultTimeoutMs: this.config.executionTimeoutMs,
      warmModules: opts.warmModules ?? this.extras.warmModules,
    });
  }

  private launcher(workDir: string, limits: ReturnType<typeof resolveLimits>): Promise<Launcher> {
    if (this.backend === 'docker') {
      return DockerLauncher.create({
        workDir,
        limits,
        image: this.config.dockerImage,
        socketPath: this.extras.dockerSocketPath,
      });
    }
    const runtime = this.extras.runtime;
    if (this.forkServer?.serves(resolve(workDir)))
      return ForkLauncher.create(this.forkServer, { workDir: resolve(workDir), runtime, limits });
    return ProcessLauncher.create({ backend: this.backend, workDir, runtime, limits });
  }
}
