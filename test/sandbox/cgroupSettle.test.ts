/**
 * A sandbox's cgroup outlives its kernels: before a restarted kernel joins it, `settle` kills what is left and waits
 * until pids.current is 0 (a process still exiting or not yet reaped counts against pids.max but is no longer listed).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandboxCgroup } from '../../lib/sandbox/cgroup';
import { DEFAULT_LIMITS } from '../../lib/sandbox/limits';
import { waitUntil } from '../helpers/wait';

describe('a sandbox cgroup settles before a kernel joins it again', async () => {
  const probe = await createSandboxCgroup(DEFAULT_LIMITS);
  await probe?.remove();

  it.runIf(probe !== null)('kills the processes left in it and returns once none is counted', async () => {
    const cgroup = (await createSandboxCgroup(DEFAULT_LIMITS))!;
    const pidsCurrent = (): number => {
      const dir = cgroup.procsFiles.find((f) => f.includes('/pids/')) ?? cgroup.procsFiles[0];
      return Number(readFileSync(join(dir, '..', 'pids.current'), 'utf8').trim());
    };
    // Children of a shell that ignores SIGTERM: only the kill in settle ends them, and the shell's own exit is reaped by us.
    const left = spawn('sh', ['-c', 'trap "" TERM; read go; sleep 600 & sleep 600 & wait'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    for (const file of cgroup.procsFiles) writeFileSync(file, String(left.pid));
    left.stdin.write('go\n'); // it forks only once it is in the group
    const exited = new Promise((r) => left.once('exit', r));
    try {
      await waitUntil(() => pidsCurrent() === 3, 30_000, 'the shell to fork its sleeps into the group');
      await cgroup.settle(30_000);
      expect(pidsCurrent()).toBe(0);
      await exited;
    } finally {
      left.kill('SIGKILL');
      await cgroup.remove();
    }
  });
});
