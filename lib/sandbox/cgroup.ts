import { randomBytes } from 'node:crypto';
import { chown, mkdir, readFile, rmdir, writeFile, access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxLimits } from './types';

/**
 * Per-sandbox cgroup (memory, pids, cpu). This host is a cgroup v1 hybrid (docs §5); pure v2 hosts use one unified
 * directory. When neither is writable, callers fall back to rlimits.
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
  await Promise.all(dirs.map((d) => mkdir(d)));
  const [memory, pids, cpu] = dirs;
  await writeFile(join(memory, 'memory.limit_in_bytes'), bytes(limits.memoryMiB));
  await writeFile(join(memory, 'memory.memsw.limit_in_bytes'), bytes(limits.memoryMiB)).catch(() => undefined); // no swap accounting
  await writeFile(join(pids, 'pids.max'), String(limits.maxProcesses));
  await writeFile(join(cpu, 'cpu.cfs_period_us'), '100000');
  await writeFile(join(cpu, 'cpu.cfs_quota_us'), String(CPU_QUOTA_US));
  const procsFiles = dirs.map((d) => join(d, 'cgroup.procs'));
  if (owner) await Promise.all(procsFiles.map((f) => chown(f, owner.uid, owner.gid)));
  return {
    kind: 'v1',
    procsFiles,
    pids: () => readPids(join(pids, 'cgroup.procs')),
    oomKilled: async () =>
      /oom_kill [1-9]/.test(await readFile(join(memory, 'memory.oom_control'), 'utf8').catch(() => '')), // cgroup gone with its process: no OOM recorded
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
  await writeFile(join(base, 'cgroup.subtree_control'), '+memory +pids +cpu').catch(() => undefined); // already enabled, or not delegated: the limits below say if they took
  await mkdir(dir);
  await writeFile(join(dir, 'memory.max'), bytes(limits.memoryMiB));
  await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined); // no swap accounting on this host
  await writeFile(join(dir, 'pids.max'), String(limits.maxProcesses));
  await writeFile(join(dir, 'cpu.max'), `${CPU_QUOTA_US} 100000`).catch(() => undefined); // cpu controller not delegated: no CPU quota
  const procs = join(dir, 'cgroup.procs');
  if (owner) await chown(procs, owner.uid, owner.gid);
  return {
    kind: 'v2',
    procsFiles: [procs],
    pids: () => readPids(procs),
    oomKilled: async () => /oom_kill [1-9]/.test(await readFile(join(dir, 'memory.events'), 'utf8').catch(() => '')), // cgroup gone: no OOM recorded
    settle: (timeoutMs) => settleGroup(join(dir, 'pids.current'), () => readPids(procs), timeoutMs),
    remove: async () => {
      await writeFile(join(dir, 'cgroup.kill'), '1').catch(() => undefined); // cgroup already empty or removed
      await removeDirs([dir], () => readPids(procs));
    },
  };
}

async function readPids(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => ''); // no such cgroup file on this host
  return text.split('\n').filter(Boolean).map(Number);
}

async function settleGroup(pidsCurrent: string, listPids: () => Promise<number[]>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const pid of await listPids()) killQuietly(pid);
    const inUse = Number((await readFile(pidsCurrent, 'utf8').catch(() => '0')).trim());
    if (!(inUse > 0) || Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Kills what is left, then removes the directories (rmdir fails while a process is still inside). */
async function removeDirs(dirs: string[], listPids: () => Promise<number[]>): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const pid of await listPids()) killQuietly(pid);
    const results = await Promise.allSettled(dirs.map((d) => rmdir(d)));
    if (results.every((r) => r.status === 'fulfilled' || (r.reason as NodeJS.ErrnoException).code === 'ENOENT')) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
