import type { KernelStreams } from './kernelProcess';
import type { SandboxBackendName } from './types';

/** What a backend must provide so KernelSandbox can run code in it (one instance per conversation). */
export interface Launcher {
  readonly backend: SandboxBackendName;
  readonly workDirInside: string;
  /** Starts the persistent Python kernel (replies on its protocol channel). */
  startKernel(): Promise<KernelStreams>;
  /** Starts `node -` reading the program from stdin (one process per execution). */
  startNode(): Promise<KernelStreams>;
  /** Makes a host file written by the worker usable by the sandbox user (chown when the sandbox runs as another uid). */
  adoptPath(hostPath: string): Promise<void>;
  /** After a process died: was it the memory limit? */
  oomKilled(): Promise<boolean>;
  dispose(): Promise<void>;
}

/** Environment every sandboxed process gets (nothing from the host's env). */
export function sandboxEnv(opts: { home: string; pathDirs: string[] }): Record<string, string> {
  return {
    PATH: [...opts.pathDirs, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: opts.home,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    MPLCONFIGDIR: '/tmp',
    MPLBACKEND: 'Agg',
    OPENBLAS_NUM_THREADS: '1',
    OMP_NUM_THREADS: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONIOENCODING: 'utf-8',
  };
}
