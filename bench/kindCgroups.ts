/**
 * CPU of everything a bench starts, by process kind, counted by the kernel: one cpuacct cgroup (v1) per kind under a
 * root group of the bench's own. This process joins `worker`; every child it starts from then on joins the group of its
 * kind the moment it is spawned, and everything that child forks stays in that group whoever reaps it (a sandbox's
 * pid-namespace orphans, LibreOffice's soffice.bin, processes nobody waits for). User and system (kernel, e.g.
 * namespace and mount set-up in clone/unshare/mount calls) time apart.
 *
 * Not in any group: the kernel's own threads (kworkers doing deferred teardown, RCU, softirqs). `machineStat` reads
 * those machine-wide (other users' load included).
 */
import { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { classifyCommand, type ProcessKind } from './processCpu';

export type MeteredKind = ProcessKind | 'worker';
export const METERED_KINDS: MeteredKind[] = [
  'worker',
  'sandbox',
  'preview',
  'libreoffice',
  'temporal',
  'model',
  'other',
];

/** CPU-seconds, user and system (kernel on the process's behalf). */
export interface UserSys {
  user: number;
  sys: number;
}

interface SpawnOptions {
  file: string;
  args?: string[];
}
const spawnable = ChildProcess.prototype as unknown as {
  spawn: (this: ChildProcess, options: SpawnOptions) => unknown;
};

const CPUACCT = '/sys/fs/cgroup/cpuacct';

/** The scripted model's process (bench/scriptedModelProcess.ts) is `model`; the rest as processCpu classifies them. */
export function kindOfCommand(argv: string): ProcessKind {
  return /scriptedModelProcess/.test(argv) ? 'model' : classifyCommand(argv);
}

export class KindCgroups {
  private readonly originalSpawn = spawnable.spawn;
  private readonly spawned = new Map<MeteredKind, number>();

  private constructor(
    private readonly root: string,
    private readonly home: string,
  ) {}

  /** Creates the groups and moves this process into `worker`; every later child goes to its kind's group. */
  static enter(): KindCgroups {
    const own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.split(':')[1]?.split(',').includes('cpuacct'));
    if (!own) throw new Error('no cpuacct cgroup (v1) for this process: cannot count CPU by cgroup here');
    const path = own.split(':')[2];
    const home = `${CPUACCT}${path === '/' ? '' : path}`;
    removeStaleGroups(home);
    const root = `${home}/sheetbench-cpu-${process.pid}`;
    for (const kind of METERED_KINDS) {
      mkdirSync(`${root}/${kind}`, { recursive: true });
      // Sandboxes run as an unprivileged uid: their wrapper shell joins the group itself, so it must be able to write.
      chmodSync(`${root}/${kind}/cgroup.procs`, 0o666);
    }
    const groups = new KindCgroups(root, home);
    groups.join(process.pid, 'worker');
    groups.hookSpawn();
    return groups;
  }

  /** CPU-seconds of every process that ever ran in each kind's group (those ended included). */
  usage(): Record<MeteredKind, UserSys> {
    const out = {} as Record<MeteredKind, UserSys>;
    for (const kind of METERED_KINDS) {
      const dir = `${this.root}/${kind}`;
      out[kind] = {
        user: Number(readFileSync(`${dir}/cpuacct.usage_user`, 'utf8')) / 1e9,
        sys: Number(readFileSync(`${dir}/cpuacct.usage_sys`, 'utf8')) / 1e9,
      };
    }
    return out;
  }

  /** Processes started per kind since enter() (direct children of this process; their own children not counted). */
  spawnedCounts(): Record<string, number> {
    return Object.fromEntries(this.spawned);
  }

  /** Processes still in each kind's group (a bench reads this after its run: anything left is not cleaned up). */
  remaining(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const kind of METERED_KINDS) {
      const pids = readFileSync(`${this.root}/${kind}/cgroup.procs`, 'utf8').split('\n').filter(Boolean);
      const named = pids.filter((p) => Number(p) !== process.pid).map((p) => `${p} ${commandOf(Number(p))}`);
      if (named.length) out[kind] = named;
    }
    return out;
  }

  /**
   * Back to the original group; each group is removed once its last process has gone (up to 5 s: processes stopped
   * just before may still be exiting). The workers' preview servers and fork server end only when this process does
   * (they die with it): their groups are left, and removed by the next bench's enter().
   */
  async leave(): Promise<void> {
    spawnable.spawn = this.originalSpawn;
    writeFileSync(`${this.home}/cgroup.procs`, String(process.pid));
    const deadline = Date.now() + 5_000;
    for (const kind of METERED_KINDS) {
      const dir = `${this.root}/${kind}`;
      while (readFileSync(`${dir}/cgroup.procs`, 'utf8').trim() && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      try {
        rmdirSync(dir);
      } catch {
        // still holds a process (reported by remaining()): left behind
      }
    }
    try {
      rmdirSync(this.root);
    } catch {
      // a kind's group is left: so is the root
    }
  }

  private join(pid: number, kind: MeteredKind): void {
    try {
      writeFileSync(`${this.root}/${kind}/cgroup.procs`, String(pid));
    } catch {
      // the child already exited: its CPU (if any) stays with the group it was born in, `worker`
    }
  }

  /**
   * Every child starts as `/bin/sh` that writes its own pid into its kind's group, then execs the real program (same pid):
   * it is in its group before it forks anything (bwrap forks at once; moving it after spawn() returned was too late).
   */
  private hookSpawn(): void {
    const original = this.originalSpawn;
    const groupOf = (options: SpawnOptions): string => {
      const kind = kindOfCommand((options.args ?? [options.file]).join(' '));
      this.spawned.set(kind, (this.spawned.get(kind) ?? 0) + 1);
      return `${this.root}/${kind}/cgroup.procs`;
    };
    spawnable.spawn = function (this: ChildProcess, options: SpawnOptions) {
      const args = options.args ?? [options.file];
      const wrapped = {
        ...options,
        file: '/bin/sh',
        args: ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', groupOf(options), options.file, ...args.slice(1)],
      };
      return original.call(this, wrapped);
    };
  }
}

/** Groups of earlier benches whose process has ended: removed when empty (a group still holding a process stays). */
function removeStaleGroups(home: string): void {
  for (const name of readdirSync(home)) {
    const owner = /^sheetbench-cpu-(\d+)$/.exec(name)?.[1];
    if (!owner || existsSync(`/proc/${owner}`)) continue;
    try {
      for (const kind of METERED_KINDS) if (existsSync(`${home}/${name}/${kind}`)) rmdirSync(`${home}/${name}/${kind}`);
      rmdirSync(`${home}/${name}`);
    } catch {
      // a process is still in it: left for a later bench
    }
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 120);
  } catch {
    return '(gone)';
  }
}
