import { readdirSync, readFileSync } from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(name), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * Processes running sandboxed code for work dirs under `workRoot`: a kernel's own bwrap process tree, or a kernel
 * forked from the fork server (everything below the zygote; the zygote and its bwrap stay up between executions).
 */
export function sandboxProcesses(workRoot: string): number {
  const all = processes();
  const children = (pid: number) => all.filter((p) => p.ppid === pid);
  const below = (pid: number): number => children(pid).reduce((n, c) => n + 1 + below(c.pid), 0);
  const mine = all.filter((p) => p.cmdline.startsWith('/usr/bin/bwrap') && p.cmdline.includes(workRoot));
  const ownBwrap = mine.filter((p) => !p.cmdline.includes('zygote.py')).length;
  // Fork server: outer bwrap → bwrap (pid namespace init) → zygote → kernels.
  const outerZygoteBwraps = mine.filter((p) => p.cmdline.includes('zygote.py') && !mine.some((q) => q.pid === p.ppid));
  const zygotes = outerZygoteBwraps.flatMap((b) => children(b.pid).flatMap((init) => children(init.pid)));
  return ownBwrap + zygotes.reduce((n, z) => n + below(z.pid), 0);
}

/** The pids of the bwrap processes of kernels whose work dir is `workDir` (killing them loses those kernels' state). */
export function kernelProcesses(workDir: string): number[] {
  return processes()
    .filter(
      (p) => p.cmdline.startsWith('/usr/bin/bwrap') && p.cmdline.includes(workDir) && !p.cmdline.includes('zygote.py'),
    )
    .map((p) => p.pid);
}
