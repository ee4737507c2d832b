import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { safeName } from '../lib/runStore/runLayout';
import type { Config } from '../config/schema';
import { defaultWorkRoot } from '../lib/sandbox/paths';

/**
 * Sandbox work dirs live outside the run folder, directly under one root (the fork server's, which its zygote must
 * enter). They hold only what an execution needs; callers remove them once outputs are copied out.
 */
export async function executionWorkDir(
  config: Pick<Config, 'sandbox'>,
  runId: string,
  taskId: string,
  label: string,
): Promise<string> {
  const root = config.sandbox.workRoot ?? defaultWorkRoot();
  await mkdir(root, { recursive: true });
  // Needed as root (test/sandbox/folderModes.test.ts): the fork server binds this root as a whole and its zygote, as
  // the sandbox's unprivileged uid, enters it to reach each work dir ("bwrap: Can't chdir to /tmp/.jobs: Permission
  // denied" at mode 700: a umask of 077, a workRoot made by mktemp -d). The pass-through only opens the folders above
  // a bind source, not the source itself. Run as anyone else, the sandbox is the folder's owner: harmless there.
  await chmod(root, 0o711);
  return path.join(root, safeName(`${runId}--${taskId}--${label}`));
}
