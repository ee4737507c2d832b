import { readFileSync } from 'node:fs';

/** This process's main thread (the event loop) as the scheduler counts it, in ms since the thread started. */
export interface MainThreadSched {
  /** Time on a CPU. */
  cpuMs: number;
  /** Time runnable but waiting for a CPU (the loop ready to run and not scheduled: the machine's load, not our code). */
  runQueueWaitMs: number;
}

/** From /proc/self/task/<pid>/schedstat (Linux; zeros where it is absent). */
export function mainThreadSched(): MainThreadSched {
  try {
    const [cpuNs, waitNs] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(/\s+/);
    return { cpuMs: Number(cpuNs) / 1e6, runQueueWaitMs: Number(waitNs) / 1e6 };
  } catch {
    return { cpuMs: 0, runQueueWaitMs: 0 }; // no schedstat (not Linux, or schedstats off): the figure reads 0
  }
}

/** What the main thread did between two readings. */
export function schedBetween(from: MainThreadSched, to: MainThreadSched): MainThreadSched {
  return { cpuMs: to.cpuMs - from.cpuMs, runQueueWaitMs: to.runQueueWaitMs - from.runQueueWaitMs };
}
