import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

/** Quiet worker logs (WARN) unless SHEETBENCH_LOG_LEVEL says otherwise; must run before the first worker connection. */
export function installWorkerRuntime(): void {
  if (installed) return;
  installed = true;
  const level = (process.env.SHEETBENCH_LOG_LEVEL ?? 'WARN').toUpperCase() as LogLevel;
  Runtime.install({ logger: new DefaultLogger(level) });
}
