import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { withHeartbeat } from '../heartbeat';
import type { ExecutionResult } from '../../lib/sandbox/types';
import type { WorkerDeps } from '../deps';

/**
 * One program in a new sandbox over `workDir` (heartbeating, cancelled with the activity), then the sandbox is
 * disposed. `warmModules`: what the sandbox imports ahead of time (left out: the sandbox factory's default).
 */
export async function executeOnce(
  deps: WorkerDeps,
  workDir: string,
  program: (workDirInside: string) => string,
  warmModules?: string[],
): Promise<ExecutionResult> {
  const factory = await deps.sandboxFactory();
  const sandbox = await factory.create({
    workDir,
    limits: { memoryMiB: deps.config.sandbox.memoryMiB, maxProcesses: deps.config.sandbox.maxProcesses },
    ...(warmModules ? { warmModules } : {}),
  });
  try {
    return await withHeartbeat(() =>
      sandbox.execute(program(sandbox.workDirInside), {
        timeoutMs: deps.config.sandbox.executionTimeoutMs,
        signal: Context.current().cancellationSignal,
      }),
    );
  } finally {
    await sandbox.dispose();
  }
}

/** `executeOnce` in a fresh `workDir` holding copies of `files`; the folder is removed afterwards. */
export async function executeWithFiles(
  deps: WorkerDeps,
  workDir: string,
  files: string[],
  program: (workDirInside: string) => string,
  warmModules?: string[],
): Promise<ExecutionResult> {
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  for (const f of files) await copyFile(f, path.join(workDir, path.basename(f)));
  try {
    return await executeOnce(deps, workDir, program, warmModules);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
