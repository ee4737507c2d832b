import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SandboxSetupError } from './errors';

export interface HostUser {
  uid: number;
  gid: number;
}

/** What stops `owner` reaching `path`: an ancestor it may not enter, or the path itself it may not read (mode bits). */
export interface Blocked {
  path: string;
  mode: number;
  missing: 'search' | 'read';
}

/**
 * Can `owner` (the uid bwrap runs as, without supplementary groups) enter every folder above `path` (unless
 * `ancestors: false`) and, when asked, read `path` itself? bwrap opens its bind sources as that uid: a folder it may
 * not enter fails with "Can't find source path … Permission denied" (a checkout in a `mktemp -d` folder, mode 700,
 * worked on as root) unless the source is passed through (passThrough.ts); a source it may not read fails either way.
 */
export async function blockedFor(
  path: string,
  owner: HostUser,
  opts: { read: boolean; ancestors?: boolean },
): Promise<Blocked | undefined> {
  if (opts.read) {
    const info = await stat(path);
    if (!allowed(info, owner, info.isDirectory() ? 0o5 : 0o4))
      return { path, mode: info.mode & 0o7777, missing: 'read' };
  }
  if (opts.ancestors === false) return undefined;
  for (let p = dirname(path); ; p = dirname(p)) {
    const info = await stat(p);
    if (!allowed(info, owner, 0o1)) return { path: p, mode: info.mode & 0o7777, missing: 'search' };
    if (p === '/') return undefined;
  }
}

function allowed(info: { uid: number; gid: number; mode: number }, owner: HostUser, bits: number): boolean {
  const shift = info.uid === owner.uid ? 6 : info.gid === owner.gid ? 3 : 0;
  return ((info.mode >> shift) & bits) === bits;
}

/** Throws a SandboxSetupError naming what blocks `owner` from `path` and the command that fixes it. */
export async function assertReachableBy(
  path: string,
  owner: HostUser,
  what: string,
  opts: { read: boolean; ancestors?: boolean } = { read: false },
): Promise<void> {
  const blocked = await blockedFor(path, owner, opts);
  if (!blocked) return;
  const mode = blocked.mode.toString(8);
  const fix =
    blocked.missing === 'search'
      ? `chmod o+x ${shellQuote(blocked.path)} (lets other users pass through the folder, not list it), or move the checkout under a folder they can enter`
      : `chmod -R a+rX ${shellQuote(blocked.path)}`;
  const who =
    process.getuid?.() === 0
      ? `uid ${owner.uid} (the worker runs as root, so the sandbox runs as an unprivileged uid)`
      : `uid ${owner.uid}`;
  throw new SandboxSetupError(
    `${what} ${path} is out of the sandbox's reach: bwrap opens it as ${who}, and ${blocked.path} has mode ${mode}, ` +
      `so that uid may not ${blocked.missing === 'search' ? 'enter' : 'read'} it. Fix: ${fix}`,
  );
}

/** A path as one shell word (single-quoted; a quote inside becomes '\''). */
export function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
