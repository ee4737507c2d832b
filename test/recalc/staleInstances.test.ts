import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { killOrphanedInstances } from '../../lib/recalc/staleInstances';
import { alive, waitUntil } from '../helpers/wait';

describe('orphaned LibreOffice instances', () => {
  it('ends instances whose owning worker is gone, and leaves the ones of live owners', async () => {
    // Stand-ins with the instance naming in their command line: owner 2147483000 does not exist, this process does.
    // A recalculation instance's pipe name and a chart export's.
    const standIn = (pipe: string) =>
      spawn('sh', ['-c', 'sleep 60; true', `--accept=pipe,name=${pipe};urp;`], { detached: true });
    const orphan = standIn('sheetbench_lo_2147483000_abc_0');
    const chartOrphan = standIn('sbcharts-2147483000-abcd1234');
    const owned = standIn(`sheetbench_lo_${process.pid}_abc_0`);
    const ownedChart = standIn(`sbcharts-${process.pid}-abcd1234`);
    const all = [orphan, chartOrphan, owned, ownedChart];
    // Running under its name, or already gone: another test's LibreOffice start sweeps orphans too (the same
    // function, in another process), and may end ours first (the clean-clone run at 9d417d3: ENOENT here).
    const named = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--accept=pipe,name=') || !alive(pid);
      } catch {
        return true; // gone
      }
    };
    await waitUntil(() => all.every((p) => named(p.pid!)), 30_000, 'the stand-ins to run');
    const endedElsewhere = [orphan, chartOrphan].filter((p) => !alive(p.pid!)).length;
    // Real orphans left on this machine by other killed workers are ended too, hence "at least".
    expect(killOrphanedInstances()).toBeGreaterThanOrEqual(2 - endedElsewhere);
    await waitUntil(() => !alive(orphan.pid!) && !alive(chartOrphan.pid!), 30_000, 'the orphans to end');
    expect(alive(owned.pid!)).toBe(true);
    expect(alive(ownedChart.pid!)).toBe(true);
    process.kill(-owned.pid!, 'SIGKILL');
    process.kill(-ownedChart.pid!, 'SIGKILL');
  });
});
