import { readdirSync, readFileSync } from 'node:fs';

/**
 * soffice runs in its own process group, so it outlives a worker killed with SIGKILL (no exit hook runs). Instances are
 * named `sheetbench_lo_<owner pid>_…` (recalculation) or `sbcharts-<owner pid>-…` (chart export, whose soffice has a
 * guard that kills it with its owner: guardedGroup.ts; this catches one whose guard was killed too, or one started
 * before the guard existed); before starting its own, a worker ends the instances whose owner is gone.
 */
let swept = false;

/** killOrphanedInstances, the first time a process asks (a worker starting its first instance or chart export). */
export function killOrphanedInstancesOnce(): void {
  if (swept) return;
  swept = true;
  killOrphanedInstances();
}

/** Returns the number of process groups ended. */
export function killOrphanedInstances(): number {
  const groups = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const owner = ownerPidOf(Number(entry));
    if (owner === undefined || isAlive(owner)) continue;
    try {
      groups.add(processGroupOf(Number(entry)));
    } catch {
      /* exited meanwhile */
    }
  }
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  return groups.size;
}

function ownerPidOf(pid: number): number | undefined {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  const m = cmdline.match(/--accept=pipe,name=(?:sheetbench_lo_(\d+)_|sbcharts-(\d+)-)/);
  return m ? Number(m[1] ?? m[2]) : undefined;
}

function processGroupOf(pid: number): number {
  // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces, so split after the last ')'.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** Whether a process with this pid exists (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
