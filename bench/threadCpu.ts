/**
 * CPU-seconds of one process by thread name, from /proc/<pid>/task/<tid>/stat: where the worker's own time goes between
 * its JavaScript main thread (`node`), Temporal's workflow thread and the SDK core's Rust threads (`tokio-runtime-w`),
 * libuv's file-system pool (`libuv-worker`), V8's helpers (`V8 DefaultWorke`: GC, compilation) and our worker threads.
 * A thread that ended between two readings is missed (its time is in the process's cgroup total).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { UserSys } from './kindCgroups';

const TICK = 100; // USER_HZ

/** User and system CPU-seconds of each live thread, by thread id, with its name. */
export type ThreadCpu = Map<string, UserSys & { name: string }>;

export function readThreadCpu(pid: number = process.pid): ThreadCpu {
  const out: ThreadCpu = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended while listed
    }
    const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    // Node names every JavaScript thread `node`: the main thread (the event loop) is the one whose id is the pid.
    const name = comm === 'node' ? (tid === String(pid) ? 'node (main thread)' : 'node (worker threads)') : comm;
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    out.set(tid, { name, user: Number(f[11]) / TICK, sys: Number(f[12]) / TICK });
  }
  return out;
}

/** The increase from `before` to `after` summed by thread name (threads born in between count from zero). */
export function threadDeltaByName(before: ThreadCpu, after: ThreadCpu): Record<string, UserSys> {
  const out: Record<string, UserSys> = {};
  for (const [tid, now] of after) {
    const was = before.get(tid);
    const sum = (out[now.name] ??= { user: 0, sys: 0 });
    sum.user += now.user - (was?.user ?? 0);
    sum.sys += now.sys - (was?.sys ?? 0);
  }
  return out;
}
