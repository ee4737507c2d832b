/**
 * CPU-seconds split by process kind, from /proc accounting: this process (worker + in-process client and scripted
 * model server), its child processes by kind (sandbox kernels and their children, preview interpreters, LibreOffice,
 * other), the Temporal server's process tree and the scripted model's process (`model`: shown, but not harness).
 *
 * Exact: when a child ends, Linux adds its whole tree's CPU to this process's cutime/cstime; a hook on every child
 * process's exit reads that counter and books the increase to the child's kind (children of different kinds reaped in
 * the same event-loop turn could swap a few ticks). Children still running at the end are read from their own
 * /proc/<pid>/stat, descendants included.
 *
 * A killed sandbox (SIGKILL to bwrap) leaves its pid-namespace processes to die as orphans reaped by init, outside any
 * cutime here: so this process moves itself into its own cpuacct cgroup (v1 here, cpu.stat on v2) that every later
 * child inherits, whatever reaps it. Group total − everything accounted above = `unreaped`, booked to the sandbox.
 */
import { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';

export type ProcessKind = 'sandbox' | 'preview' | 'libreoffice' | 'temporal' | 'model' | 'other';
export type CpuByKind = Record<ProcessKind | 'worker' | 'unreaped', number>;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, seconds */
  own: number;
  /** cutime + cstime (reaped children), seconds */
  reaped: number;
}

const TICK = 100; // USER_HZ on Linux

function readStat(pid: number | 'self'): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // after "pid (comm) ": state=0 ppid=1 ... utime=11 stime=12 cutime=13 cstime=14
  const f = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    pid: Number(text.slice(0, text.indexOf(' '))),
    ppid: f[1],
    own: (f[11] + f[12]) / TICK,
    reaped: (f[13] + f[14]) / TICK,
  };
}

export function classifyCommand(argv: string): ProcessKind {
  // The program first: a sandbox's bwrap binds /etc/libreoffice, which is not LibreOffice running.
  if (/^(\S*\/)?bwrap\s/.test(argv)) return 'sandbox';
  if (/soffice|libreoffice|lo_bridge\.py/i.test(argv)) return 'libreoffice';
  if (/preview/.test(argv)) return 'preview';
  if (/bwrap|prlimit|kernel\.py|template\.py|cgroup|while \[ "\$1" != -- \]/.test(argv)) return 'sandbox';
  if (/temporal/.test(argv)) return 'temporal';
  return 'other';
}

/** Every child_process API starts its process through this (undocumented, stable since Node 0.x) method. */
interface SpawnOptions {
  file: string;
  args?: string[];
}
const spawnable = ChildProcess.prototype as unknown as {
  spawn: (this: ChildProcess, options: SpawnOptions) => unknown;
};

const zero = (): CpuByKind => ({
  worker: 0,
  sandbox: 0,
  preview: 0,
  libreoffice: 0,
  temporal: 0,
  model: 0,
  other: 0,
  unreaped: 0,
});

/** The harness's CPU: everything but the model. */
export function harnessCpu(cpu: CpuByKind): number {
  return cpu.worker + cpu.sandbox + cpu.preview + cpu.libreoffice + cpu.temporal + cpu.other;
}

/** A cpuacct cgroup holding this process and every child it starts from now on (undefined when not writable). */
class CpuGroup {
  private constructor(
    private readonly dir: string,
    private readonly home: string,
  ) {}

  static enter(): CpuGroup | undefined {
    const own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.split(':')[1]?.split(',').includes('cpuacct'));
    if (!own) return undefined;
    const home = `/sys/fs/cgroup/cpuacct${own.split(':')[2] === '/' ? '' : own.split(':')[2]}`;
    const dir = `${home}/sheetbench-meter-${process.pid}`;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cgroup.procs`, String(process.pid));
      return new CpuGroup(dir, home);
    } catch {
      return undefined;
    }
  }

  /** CPU-seconds of every process that ever ran in the group. */
  usage(): number {
    return Number(readFileSync(`${this.dir}/cpuacct.usage`, 'utf8')) / 1e9;
  }

  leave(): void {
    try {
      writeFileSync(`${this.home}/cgroup.procs`, String(process.pid));
      rmdirSync(this.dir);
    } catch {
      // children still in it (a server stopped later): the empty group is left behind, harmless
    }
  }
}

/** A child started before the meter (the worker's preview server, started with the worker): its command line says what it is. */
function kindFromProc(pid: number): ProcessKind {
  try {
    return classifyCommand(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
  } catch {
    return 'other';
  }
}

export class ProcessCpuMeter {
  private readonly ended = zero();
  private readonly kindOfPid = new Map<number, ProcessKind>();
  private lastReaped = 0;
  private baseSelf!: ProcStat;
  private baseLive = new Map<number, number>();
  private readonly originalSpawn = spawnable.spawn;
  private group?: CpuGroup;
  private groupBase = 0;

  /** The Temporal server and the model process (if any) are started before the meter, so outside its cgroup. */
  constructor(
    private readonly temporalPid: number,
    private readonly modelPid = -1,
  ) {}

  start(): void {
    const original = this.originalSpawn;
    // The replacement is called with the child as `this`; the meter's side is reached through these arrows.
    const remember = (pid: number, kind: ProcessKind) => this.kindOfPid.set(pid, kind);
    const exited = (kind: ProcessKind) => this.onChildExit(kind);
    spawnable.spawn = function (this: ChildProcess, options: SpawnOptions) {
      const result = original.call(this, options);
      const kind = classifyCommand((options.args ?? [options.file]).join(' '));
      if (this.pid) remember(this.pid, kind);
      this.once('exit', () => exited(kind));
      return result;
    };
    this.group = CpuGroup.enter();
    this.groupBase = this.group?.usage() ?? 0;
    this.baseSelf = readStat('self')!;
    this.lastReaped = this.baseSelf.reaped;
    for (const p of this.liveChildren()) this.baseLive.set(p.pid, p.own + p.reaped + this.descendantsOf(p.pid));
  }

  /** CPU-seconds since start(), by kind; `worker` is this process itself; `unreaped` is already inside `sandbox`. */
  stop(): CpuByKind {
    spawnable.spawn = this.originalSpawn;
    const self = readStat('self')!;
    const out = { ...this.ended };
    out.other += self.reaped - this.lastReaped; // reaped outside an exit hook (none expected)
    for (const p of this.liveChildren()) {
      const kind =
        p.pid === this.temporalPid
          ? 'temporal'
          : p.pid === this.modelPid
            ? 'model'
            : (this.kindOfPid.get(p.pid) ?? kindFromProc(p.pid));
      out[kind] += p.own + p.reaped + this.descendantsOf(p.pid) - (this.baseLive.get(p.pid) ?? 0);
    }
    out.worker = self.own - this.baseSelf.own;
    if (this.group) {
      const accounted = out.worker + out.sandbox + out.preview + out.libreoffice + out.other;
      out.unreaped = Math.max(0, this.group.usage() - this.groupBase - accounted);
      out.sandbox += out.unreaped;
      this.group.leave();
    }
    return out;
  }

  private onChildExit(kind: ProcessKind): void {
    const reaped = readStat('self')!.reaped;
    this.ended[kind] += reaped - this.lastReaped;
    this.lastReaped = reaped;
  }

  private liveChildren(): ProcStat[] {
    return this.allProcesses().filter((p) => p.ppid === process.pid);
  }

  /** utime+stime+cutime+cstime of the live descendants below `pid` (their ended children are in their cutime). */
  private descendantsOf(pid: number, all = this.allProcesses()): number {
    let sum = 0;
    for (const p of all) if (p.ppid === pid) sum += p.own + p.reaped + this.descendantsOf(p.pid, all);
    return sum;
  }

  private allProcesses(): ProcStat[] {
    const out: ProcStat[] = [];
    for (const name of readdirSync('/proc'))
      if (/^\d+$/.test(name)) {
        const st = readStat(Number(name));
        if (st) out.push(st);
      }
    return out;
  }
}

/** The machine's load average (1, 5, 15 min), to print next to every wall-clock figure. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
