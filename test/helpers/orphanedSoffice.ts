import { readdirSync, readFileSync } from 'node:fs';

/**
 * LibreOffice instances a (now dead) worker started: the recalc engine runs soffice in its own process group, so a
 * kill -9 of the worker's group does not reach it. Found by the pipe name `sheetbench_lo_<workerPid>_…` in their
 * command line; returns their process-group ids.
 */
export function sofficeGroupsOf(workerPid: number): number[] {
  const groups = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(`sheetbench_lo_${workerPid}_`)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      groups.add(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]));
    } catch {
      // The process exited while we looked.
    }
  }
  return [...groups];
}

/** kill -9 of each group (what a machine crash does to them). */
export function killGroups(groups: number[]): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
