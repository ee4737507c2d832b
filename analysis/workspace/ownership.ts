import { lchown, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sandboxHostUser } from '../../lib/sandbox/processLauncher';

/** Files the worker writes must stay writable by the sandbox's unprivileged uid (the worker may run as root). */
export async function handToSandbox(hostPath: string): Promise<void> {
  const owner = sandboxHostUser();
  if (owner) await lchown(hostPath, owner.uid, owner.gid);
}

/** Creates a workspace folder (and missing parents), each handed to the sandbox user. */
export async function mkdirForSandbox(root: string, dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true });
  if (!created) return;
  for (let p = dir; p.length >= created.length && p !== root; p = dirname(p)) await handToSandbox(p);
}
