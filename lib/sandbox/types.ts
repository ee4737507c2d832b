/** The one Sandbox interface every backend (bwrap, docker, unsafe subprocess) implements. */

export type SandboxBackendName = 'bwrap' | 'docker' | 'unsafe';
export type SandboxLanguage = 'python' | 'node';

export interface ExecutionResult {
  stdout: string;
  stderr: string;
  /** Condensed traceback / error text, '' when the code ran cleanly. */
  error: string;
  timedOut: boolean;
  /** True when the kernel had to be killed and respawned: variables from earlier executions are gone. */
  stateReset: boolean;
  /** Exit code for one-shot runs; 0 for kernel executions that did not crash it. */
  exitCode: number | null;
  /** Work-dir files (relative paths) created or changed by this execution. */
  files: string[];
  durationMs: number;
  truncated: boolean;
}

export interface SandboxLimits {
  memoryMiB: number;
  cpuSeconds?: number;
  maxProcesses: number;
  maxFileMiB: number;
  tmpMiB: number;
  maxOutputBytes: number;
}

export interface SandboxOptions {
  /** Host folder that becomes the only writable place inside (mounted at /job when the backend can). */
  workDir: string;
  language?: SandboxLanguage;
  limits?: Partial<SandboxLimits>;
  /** Modules the kernel imports in the background after start (default: the factory's); [] for a one-shot run. */
  warmModules?: string[];
}

export interface Sandbox {
  readonly backend: SandboxBackendName;
  /** Path of the work dir as the code sees it (e.g. /job). */
  readonly workDirInside: string;
  execute(code: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<ExecutionResult>;
  writeFile(relPath: string, data: Buffer | string): Promise<void>;
  readFile(relPath: string): Promise<Buffer>;
  /** Drop all kernel state (fresh interpreter), keep the work dir. */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

export interface SandboxFactory {
  readonly backend: SandboxBackendName;
  create(opts: SandboxOptions): Promise<Sandbox>;
}
