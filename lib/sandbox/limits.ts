import type { SandboxConfig } from '../../config/schema';
import type { SandboxLimits } from './types';

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryMiB: 2048,
  maxProcesses: 64,
  maxFileMiB: 256,
  tmpMiB: 64,
  maxOutputBytes: 1 << 20,
};

/** Below 1 GiB of address space OpenBLAS can busy-wait forever instead of failing (docs §3). */
export const MIN_ADDRESS_SPACE_MIB = 1024;

export function limitsFromConfig(config: Pick<SandboxConfig, 'memoryMiB' | 'maxProcesses'>): Partial<SandboxLimits> {
  return { memoryMiB: config.memoryMiB, maxProcesses: config.maxProcesses };
}

export function resolveLimits(...layers: Array<Partial<SandboxLimits> | undefined>): SandboxLimits {
  const merged = Object.assign({}, DEFAULT_LIMITS, ...layers.map((l) => dropUndefined(l ?? {}))) as SandboxLimits;
  return { ...merged, memoryMiB: Math.max(merged.memoryMiB, MIN_ADDRESS_SPACE_MIB) };
}

function dropUndefined<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type ProcessRlimit = 'fsize' | 'core' | 'cpu' | 'as' | 'nproc';

/**
 * rlimits for a sandboxed process tree: file size and core dumps always; CPU time when set; memory and process counts
 * only when no cgroup limits them (RLIMIT_NPROC counts every process of the uid, so only with a dedicated sandbox uid).
 */
export function processRlimits(
  limits: SandboxLimits,
  opts: { cgroup: boolean; dedicatedUid: boolean; addressSpace: boolean },
): Partial<Record<ProcessRlimit, number>> {
  const out: Partial<Record<ProcessRlimit, number>> = { fsize: limits.maxFileMiB * 1024 * 1024, core: 0 };
  if (limits.cpuSeconds) out.cpu = limits.cpuSeconds;
  if (!opts.cgroup && opts.addressSpace) out.as = limits.memoryMiB * 1024 * 1024;
  if (!opts.cgroup && opts.dedicatedUid) out.nproc = limits.maxProcesses * 4;
  return out;
}
