import { spawn } from 'node:child_process';
import type { Bind } from './runtime';

export const BWRAP = '/usr/bin/bwrap';

/**
 * Host paths the sandbox can read (bound read-only at the same absolute path). /etc/libreoffice is Debian's LibreOffice
 * configuration (sofficerc, registry/main.xcd, which /usr/lib/libreoffice links to): without it soffice cannot start
 * inside, and SpreadsheetBench 2's scaffold offers LibreOffice to the agent.
 */
const ETC_BINDS = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/fonts',
  '/etc/matplotlibrc',
  '/etc/localtime',
  '/etc/libreoffice',
];

export interface BwrapPlan {
  workDir: string;
  workDirInside: string;
  /** Host folders/files needed read-only (python environment, kernel script, node binary), at fixed paths inside (runtime.ts). */
  readOnly: Bind[];
  tmpMiB: number;
  env: Record<string, string>;
  /** More writable host folders, bound after the tmpfs (host path → path inside). */
  binds?: [string, string][];
  /** Empty folders to create in the sandbox's root (mount points). */
  dirs?: string[];
  /** Capabilities kept inside the sandbox's own user namespace (the fork server's, which drops them in each kernel). */
  keepCaps?: string[];
}

/** The bwrap argument list (docs §2): everything but /usr, a few /etc entries and the work dir is invisible. */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = [
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/sbin',
    '/sbin',
  ];
  for (const path of ETC_BINDS) args.push('--ro-bind-try', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(plan.tmpMiB * 1024 * 1024), '--tmpfs', '/tmp');
  for (const [host, inside] of plan.readOnly) args.push('--ro-bind', host, inside);
  for (const [host, inside] of plan.binds ?? []) args.push('--bind', host, inside);
  for (const dir of plan.dirs ?? []) args.push('--dir', dir);
  args.push('--bind', plan.workDir, plan.workDirInside, '--chdir', plan.workDirInside);
  args.push(
    '--die-with-parent',
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    '1000',
    '--gid',
    '1000',
  );
  args.push(
    '--cap-drop',
    'ALL',
    ...(plan.keepCaps ?? []).flatMap((cap) => ['--cap-add', cap]),
    '--new-session',
    '--hostname',
    'sandbox',
    '--clearenv',
  );
  for (const [key, value] of Object.entries(plan.env)) args.push('--setenv', key, value);
  return args;
}

/** Does a fully hardened bwrap start here? (~7 ms when it works.) */
export function probeBwrap(owner?: { uid: number; gid: number }): Promise<{ ok: boolean; reason: string }> {
  const args = [
    ...bwrapArgs({ workDir: '/tmp', workDirInside: '/job', readOnly: [], tmpMiB: 1, env: { PATH: '/usr/bin' } }),
    '/usr/bin/true',
  ];
  return new Promise((resolve) => {
    const child = spawn(BWRAP, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(owner ?? {}) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => resolve({ ok: false, reason: err.message }));
    child.on('close', (code) => resolve({ ok: code === 0, reason: code === 0 ? '' : stderr.trim() || `exit ${code}` }));
  });
}
