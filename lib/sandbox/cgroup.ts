import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { access, constants, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxLimits } from './types';

/**
 * Per-sandbox cgroup (memory, pids, cpu). This host is a cgroup v1 hybrid (docs §5); pure v2 hosts use one unified
 * directory. When neither is writable, callers fall back to rlimits.
 *
 * A group is made, read and removed for every execution: those calls are synchronous. cgroupfs lives in memory and
 * answers at once, and each call through the promise API costs a thread-pool round trip (two thread wake-ups) that
 * cost more CPU than the call itself (bench/fork-server-cpu.ts). Joining a group does not always answer at once under load
 * (it can wait in the kernel): the fork launcher's join goes through the thread pool (forkLauncher.ts).
 */
export interface SandboxCgroup {
  readonly kind: 'v1' | 'v2';
  /** Files the launcher writes its own pid into (before exec'ing bwrap) so every descendant is limited. */
  readonly procsFiles: string[];
  /** Pids currently in the group (to kill a whole tree). */
  pids(): Promise<number[]>;
  /** True when the memory controller OOM-killed something since creation. */
  oomKilled(): Promise<boolean>;
  /**
   * Kills what is left in the group and waits (up to `timeoutMs`) until it holds no task at all: pids.max counts
   * processes that are still exiting or not yet reaped, which `cgroup.procs` no longer lists.
   */
  settle(timeoutMs: number): Promise<void>;
  remove(): Promise<void>;
}

const ROOT = '/sys/fs/cgroup';
const V1_CONTROLLERS = ['memory', 'pids', 'cpu'] as const;

type Layout = { kind: 'v1'; dirs: Record<(typeof V1_CONTROLLERS)[number], string> } | { kind: 'v2'; dir: string };

let layoutPromise: Promise<Layout | null> | undefined;

/** Detects (once) where this process may create child cgroups. */
export function detectCgroupLayout(): Promise<Layout | null> {
  layoutPromise ??= detect().catch(() => null); // no usable cgroup hierarchy: limits are applied without cgroups
  return layoutPromise;
}

async function detect(): Promise<Layout | null> {
  const own = parseProcCgroup(await readFile('/proc/self/cgroup', 'utf8'));
  const v1 = Object.fromEntries(
    V1_CONTROLLERS.map((c) => [c, own.get(c) === undefined ? '' : join(ROOT, c, own.get(c)!)]),
  );
  if (V1_CONTROLLERS.every((c) => v1[c]) && (await allWritable(Object.values(v1)))) {
    return { kind: 'v1', dirs: v1 as Record<(typeof V1_CONTROLLERS)[number], string> };
  }
  const unified = own.get('');
  if (unified !== undefined) {
    const dir = join(ROOT, unified);
    const controllers = await readFile(join(dir, 'cgroup.controllers'), 'utf8').catch(() => ''); // not a cgroup v2 folder: no controllers
    if (['memory', 'pids'].every((c) => controllers.split(/\s+/).includes(c)) && (await allWritable([dir])))
      return { kind: 'v2', dir };
  }
  return null;
}

/** `/proc/self/cgroup` lines `id:controllers:path` → controller → path ('' key for the v2 line). */
export function parseProcCgroup(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of text.trim().split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined) continue;
    for (const c of controllers.split(',')) map.set(c, path);
  }
  return map;
}

async function allWritable(dirs: string[]): Promise<boolean> {
  try {
    await Promise.all(dirs.map((d) => access(d, constants.W_OK)));
    return true;
  } catch {
    return false;
  }
}

export async function createSandboxCgroup(
  limits: SandboxLimits,
  owner?: { uid: number; gid: number },
): Promise<SandboxCgroup | null> {
  const layout = await detectCgroupLayout();
  if (!layout) return null;
  const name = `sheetbench-${randomBytes(6).toString('hex')}`;
  try {
    return layout.kind === 'v1'
      ? await createV1(layout.dirs, name, limits, owner)
      : await createV2(layout.dir, name, limits, owner);
  } catch {
    return null; // e.g. controllers not delegated after all: rlimits still apply
  }
}

/** One CPU per sandbox (period 100 ms). */
const CPU_QUOTA_US = 100_000;

const bytes = (mib: number) => String(mib * 1024 * 1024);

async function createV1(
  base: Record<string, string>,
  name: string,
  limits: SandboxLimits,
  owner?: { uid: number; gid: number },
): Promise<SandboxCgroup> {
  const dirs = V1_CONTROLLERS.map((c) => join(base[c], name));
  for (const d of dirs) mkdirSync(d);
  const [memory, pids, cpu] = dirs;
  writeFileSync(join(memory, 'memory.limit_in_bytes'), bytes(limits.memoryMiB));
  writeIfSupported(join(memory, 'memory.memsw.limit_in_bytes'), bytes(limits.memoryMiB)); // no swap accounting
  writeFileSync(join(pids, 'pids.max'), String(limits.maxProcesses));
  writeFileSync(join(cpu, 'cpu.cfs_period_us'), '100000');
  writeFileSync(join(cpu, 'cpu.cfs_quota_us'), String(CPU_QUOTA_US));
  const procsFiles = dirs.map((d) => join(d, 'cgroup.procs'));
  if (owner) for (const f of procsFiles) chownSync(f, owner.uid, owner.gid);
  return {
    kind: 'v1',
    procsFiles,
    pids: async () => readPids(join(pids, 'cgroup.procs')),
    oomKilled: async () => /oom_kill [1-9]/.test(readIfPresent(join(memory, 'memory.oom_control'))), // cgroup gone with its process: no OOM recorded
    settle: (timeoutMs) =>
      settleGroup(join(pids, 'pids.current'), () => readPids(join(pids, 'cgroup.procs')), timeoutMs),
    remove: () => removeDirs(dirs, () => readPids(join(pids, 'cgroup.procs'))),
  };
}

async function createV2(
  base: string,
  name: string,
  limits: SandboxLimits,
  owner?: { uid: number; gid: number },
): Promise<SandboxCgroup> {
  const dir = join(base, name);
  writeIfSupported(join(base, 'cgroup.subtree_control'), '+memory +pids +cpu'); // already enabled, or not delegated: the limits below say if they took
  mkdirSync(dir);
  writeFileSync(join(dir, 'memory.max'), bytes(limits.memoryMiB));
  writeIfSupported(join(dir, 'memory.swap.max'), '0'); // no swap accounting on this host
  writeFileSync(join(dir, 'pids.max'), String(limits.maxProcesses));
  writeIfSupported(join(dir, 'cpu.max'), `${CPU_QUOTA_US} 100000`); // cpu controller not delegated: no CPU quota
  const procs = join(dir, 'cgroup.procs');
  if (owner) chownSync(procs, owner.uid, owner.gid);
  return {
    kind: 'v2',
    procsFiles: [procs],
    pids: async () => readPids(procs),
    oomKilled: async () => /oom_kill [1-9]/.test(readIfPresent(join(dir, 'memory.events'))), // cgroup gone: no OOM recorded
    settle: (timeoutMs) => settleGroup(join(dir, 'pids.current'), () => readPids(procs), timeoutMs),
    remove: async () => {
      writeIfSupported(join(dir, 'cgroup.kill'), '1'); // cgroup already empty or removed
      await removeDirs([dir], () => readPids(procs));
    },
  };
}

/** A write the host may not support (that control file is absent or refuses the value): skipped. */
function writeIfSupported(file: string, value: string): void {
  try {
    writeFileSync(file, value);
  } catch {
    // not supported here: see the caller's note
  }
}

/** A control file's text, or '' once the group (or the file) is gone. */
function readIfPresent(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function readPids(file: string): number[] {
  return readIfPresent(file).split('\n').filter(Boolean).map(Number); // no such cgroup file on this host: none
}

async function settleGroup(pidsCurrent: string, listPids: () => number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const pid of listPids()) killQuietly(pid);
    const inUse = Number((readIfPresent(pidsCurrent) || '0').trim());
    if (!(inUse > 0) || Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Kills what is left, then removes the directories (rmdir fails while a process is still inside). */
async function removeDirs(dirs: string[], listPids: () => number[]): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const pid of listPids()) killQuietly(pid);
    if (dirs.map(removedOrGone).every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** rmdir; true when the directory is gone (removed now or before), false while it still holds a process. */
function removedOrGone(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
