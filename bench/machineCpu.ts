/**
 * The whole machine's CPU from /proc/stat: busy time by mode, processes forked, and the kernel's own threads (kworkers,
 * ksoftirqd, RCU: deferred work such as tearing down namespaces and cgroups) from their /proc/<pid>/stat. Machine-wide
 * means everyone's: on a shared machine these figures include other users' load (print the load average beside them).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK = 100; // USER_HZ

export interface MachineCpu {
  /** CPU-seconds by /proc/stat mode (busy modes only: idle and iowait left out). */
  user: number;
  nice: number;
  system: number;
  irq: number;
  softirq: number;
  steal: number;
  /** Processes (and threads) forked since boot. */
  forks: number;
  /** CPU-seconds of the kernel's threads (children of kthreadd, pid 2). */
  kernelThreads: number;
}

export function readMachineCpu(): MachineCpu {
  const stat = readFileSync('/proc/stat', 'utf8');
  const cpu = stat
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((v) => Number(v) / TICK);
  const forks = Number(/^processes (\d+)$/m.exec(stat)?.[1] ?? NaN);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  return { user, nice, system, irq, softirq, steal, forks, kernelThreads: kernelThreadSeconds() };
}

/** The increase of each figure from `before` to `after`. */
export function machineDelta(before: MachineCpu, after: MachineCpu): MachineCpu & { busy: number } {
  const d = Object.fromEntries(
    Object.keys(before).map((k) => [k, after[k as keyof MachineCpu] - before[k as keyof MachineCpu]]),
  ) as unknown as MachineCpu;
  return { ...d, busy: d.user + d.nice + d.system + d.irq + d.softirq + d.steal };
}

function kernelThreadSeconds(): number {
  let sum = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended while listed
    }
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    if (name === '2' || f[1] === '2') sum += (Number(f[11]) + Number(f[12])) / TICK;
  }
  return sum;
}
