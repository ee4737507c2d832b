import { chown } from 'node:fs/promises';
import { sandboxHostUser } from '../../sandbox/processLauncher';

/** Files the worker writes must stay writable by the sandbox's unprivileged uid (the worker may run as root). */
export async function handToSandbox(hostPath: string): Promise<void> {
  const owner = sandboxHostUser();
  if (owner) await chown(hostPath, owner.uid, owner.gid);
}
