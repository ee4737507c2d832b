import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { safeName } from '../lib/runStore/runLayout';
import type { Config } from '../config/schema';
import { defaultWorkRoot } from '../lib/sandbox/paths';

/**
 * Sandbox work dirs live outside the run folder, under a root the sandbox's unprivileged uid can traverse (a run
 * folder may be private). They hold only what an execution needs; callers remove them once outputs are copied out.
 */
export async function executionWorkDir(
  config: Pick<Config, 'sandbox'>,
  runId: string,
  taskId: string,
  label: string,
): Promise<string> {
  const root = config.sandbox.workRoot ?? defaultWorkRoot();
  await mkdir(root, { recursive: true });
  await chmod(root, 0o711);
  return path.join(root, safeName(`${runId}--${taskId}--${label}`));
}
