import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { killOrphanedInstances } from '../../lib/recalc/staleInstances';
import { alive } from '../helpers/wait';

describe('orphaned LibreOffice instances', () => {
  it('ends instances whose owning worker is gone, and leaves the ones of live owners', async () => {
    // Stand-ins with the instance naming in their command line: owner 2147483000 does not exist, this process does.
    const standIn = (owner: number) =>
      spawn('sh', ['-c', 'sleep 60; true', `--accept=pipe,name=sheetbench_lo_${owner}_abc_0;urp;`], { detached: true });
    const orphan = standIn(2147483000);
    const owned = standIn(process.pid);
    await new Promise((r) => setTimeout(r, 200));
    // Real orphans left on this machine by other killed workers are ended too, hence at least one.
    expect(killOrphanedInstances()).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(orphan.pid!)).toBe(false);
    expect(alive(owned.pid!)).toBe(true);
    process.kill(-owned.pid!, 'SIGKILL');
  });
});
