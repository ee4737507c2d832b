import { DefaultLogger, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';
import { workerLogLine } from './workerLog';

let installed = false;
let focusRunId: string | undefined;

/** Quiet worker logs (WARN) unless SHEETBENCH_LOG_LEVEL says otherwise; must run before the first worker connection. */
export function installWorkerRuntime(): void {
  if (installed) return;
  installed = true;
  const level = (process.env.SHEETBENCH_LOG_LEVEL ?? 'WARN').toUpperCase() as LogLevel;
  const sdkFormat = new DefaultLogger(level);
  Runtime.install({
    // The processes handle SIGINT/SIGTERM themselves (the CLI must stop following its run, not only its workers).
    shutdownSignals: [],
    logger: new DefaultLogger(level, (entry: LogEntry) => {
      const own = workerLogLine(entry, focusRunId);
      if (!own) sdkFormat.log(entry.level, entry.message, entry.meta);
      else if (own.line) process.stderr.write(`${own.line}\n`);
    }),
  });
}

/** A CLI following one run shows only that run's activity failures (other runs share the task queues). */
export function focusWorkerLog(runId: string | undefined): void {
  focusRunId = runId;
}
