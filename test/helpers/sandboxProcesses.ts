import { readdirSync, readFileSync } from 'node:fs';
import { ZYGOTE_NAME } from '../../lib/sandbox/forkServer';

interface Proc {
  pid: number;
  ppid: number;
  /** /proc/<pid>/comm: the name a process gives itself. */
  name: string;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the fields after it follow the last ')'.
      out.push({
        pid: Number(name),
        ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]),
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cmdline,
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * Processes running sandboxed code for work dirs under `workRoot`: a kernel's own bwrap process tree, or a kernel
 * forked from the fork server (everything below the zygote; the zygote, the processes above it and its bwrap stay up
 * between executions).
 */
export function sandboxProcesses(workRoot: string): number {
  const all = processes();
  const children = (pid: number) => all.filter((p) => p.ppid === pid);
  const below = (pid: number): number => children(pid).reduce((n, c) => n + 1 + below(c.pid), 0);
  const mine = all.filter((p) => p.cmdline.startsWith('/usr/bin/bwrap') && p.cmdline.includes(workRoot));
  const ownBwrap = mine.filter((p) => !p.cmdline.includes('zygote.py')).length;
  const outerZygoteBwraps = mine.filter((p) => p.cmdline.includes('zygote.py') && !mine.some((q) => q.pid === p.ppid));
  const zygotes = outerZygoteBwraps.flatMap((b) => highestNamed(b.pid, ZYGOTE_NAME, children));
  return ownBwrap + zygotes.reduce((n, z) => n + below(z.pid), 0);
}

/** The processes named `name` under `pid` that have no such process above them (up to `pid`). */
function highestNamed(pid: number, name: string, children: (pid: number) => Proc[]): Proc[] {
  return children(pid).flatMap((c) => (c.name === name ? [c] : highestNamed(c.pid, name, children)));
}

/** The pids of the bwrap processes of kernels whose work dir is `workDir` (killing them loses those kernels' state). */
export function kernelProcesses(workDir: string): number[] {
  return processes()
    .filter((p) => p.cmdline.startsWith('/usr/bin/bwrap') && binds(p, workDir) && !p.cmdline.includes('zygote.py'))
    .map((p) => p.pid);
}

/**
 * Whether a bwrap process binds `dir`: named on its command line, or (as root, through the pass-through, which binds
 * a stand-in mounted from it: lib/sandbox/passThrough.ts) a mount of its namespace comes from it (mountinfo's root
 * field, spaces escaped as \040).
 */
function binds(p: Proc, dir: string): boolean {
  if (p.cmdline.includes(dir)) return true;
  try {
    const escaped = dir.replaceAll(' ', '\\040');
    return (
      readFileSync(`/proc/${p.pid}/mountinfo`, 'utf8')
        .split('\n')
        .map((line) => line.split(' ')[3] ?? '')
        // The root is the path within the source's filesystem: the whole path when that is "/", its tail on a tmpfs.
        .some((root) => root.length > 1 && (escaped === root || escaped.endsWith(root)))
    );
  } catch {
    return false; // gone meanwhile
  }
}
