import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { killOrphanedInstances } from '../../lib/recalc/staleInstances';
import { alive, waitUntil } from '../helpers/wait';

describe('orphaned LibreOffice instances', () => {
  it('ends instances whose owning worker is gone, and leaves the ones of live owners', async () => {
    // Stand-ins with the instance naming in their command line: owner 2147483000 does not exist, this process does.
    const standIn = (owner: number) =>
      spawn('sh', ['-c', 'sleep 60; true', `--accept=pipe,name=sheetbench_lo_${owner}_abc_0;urp;`], { detached: true });
    const orphan = standIn(2147483000);
    const owned = standIn(process.pid);
    const named = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sheetbench_lo_');
    await waitUntil(() => named(orphan.pid!) && named(owned.pid!), 30_000, 'the stand-ins to run');
    // Real orphans left on this machine by other killed workers are ended too, hence at least one.
    expect(killOrphanedInstances()).toBeGreaterThanOrEqual(1);
    await waitUntil(() => !alive(orphan.pid!), 30_000, 'the orphan to end');
    expect(alive(owned.pid!)).toBe(true);
    process.kill(-owned.pid!, 'SIGKILL');
  });
});
