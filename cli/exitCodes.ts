import { ConfigError } from '../config/load';
import { DatasetError } from '../lib/runStore/taskRecord';

/** Exit codes a script can rely on. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  dataset: 4,
  server: 5,
  notFound: 6,
  paused: 7,
  mismatch: 8,
  /** A control command reached a run that no worker serves (budget: refused, it needs a worker to validate). */
  noWorker: 9,
  /** Ctrl-C / SIGTERM while following a run (the run itself goes on; `resume` continues it). */
  interrupted: 130,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof ConfigError) return EXIT.config;
  if (err instanceof DatasetError) return EXIT.dataset;
  return EXIT.failure;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
