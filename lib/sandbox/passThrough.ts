import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxSetupError } from './errors';
import { blockedFor, shellQuote, type Blocked, type HostUser } from './reachable';

export const UNSHARE = '/usr/bin/unshare';
export const SETPRIV = '/usr/bin/setpriv';

/** Bind-mounts each "source target" pair given before `--`, then exec's the rest (run by root in its own mount namespace). */
const MOUNT_ALL = 'while [ "$1" != -- ]; do /bin/mount --bind "$1" "$2" || exit 96; shift 2; done; shift; exec "$@"';

/**
 * Bind sources the sandbox's uid cannot reach through the folders above them (a checkout or run folder inside a
 * `mktemp -d` folder, mode 700, with the worker running as root). bwrap opens its sources as that uid and resolves
 * them by path (`--bind-fd` too: its source is "/proc/self/fd/N", which resolve_symlinks_in_ops realpath()s like any
 * other, after switching to the real uid; 0.8.0 and upstream alike: "Can't find source path /proc/self/fd/3:
 * Permission denied"), so a folder above one it may not enter stops it. Here root mounts each such source, in a mount
 * namespace of the sandbox's own (private: the host's mounts are unchanged and the namespace ends with the sandbox),
 * onto an empty stand-in under a folder every uid may enter; the command then drops to the sandbox's uid and bwrap
 * binds the stand-ins. Sources it can reach are used as
 * they are, and nothing changes when none is out of reach.
 */
export class PassThrough {
  private constructor(
    private readonly standIns: Map<string, string>,
    private readonly owner: HostUser | undefined,
  ) {}

  /** No stand-ins: every source is used by its own path (not root, or every source within reach). */
  static readonly none = new PassThrough(new Map(), undefined);

  /** Stand-ins for those of `sources` that `owner` cannot reach (folders above them it may not enter). */
  static async prepare(sources: string[], owner: HostUser | undefined): Promise<PassThrough> {
    if (!owner) return PassThrough.none;
    const blocked: string[] = [];
    for (const source of new Set(sources)) if (await blockedFor(source, owner, { read: false })) blocked.push(source);
    if (!blocked.length) return PassThrough.none;
    const root = await standInRoot(owner);
    const standIns = new Map<string, string>();
    const taken = { dir: 0, file: 0 };
    for (const source of blocked) {
      const kind = statSync(source).isDirectory() ? 'dir' : 'file';
      standIns.set(source, standIn(root, kind, taken[kind]++));
    }
    return new PassThrough(standIns, owner);
  }

  /** Whether the command runs through a mount namespace (spawned as root; it drops to the sandbox uid itself). */
  get active(): boolean {
    return this.standIns.size > 0;
  }

  /** The path bwrap binds `source` from. */
  path(source: string): string {
    return this.standIns.get(source) ?? source;
  }

  /** `command` (bwrap and what runs before it) behind the mounts and the drop to the sandbox's uid, when active. */
  wrap(command: string[]): string[] {
    if (!this.active || !this.owner) return command;
    const mounts = [...this.standIns].flat();
    const { uid, gid } = this.owner;
    return [
      UNSHARE,
      '--mount',
      '--propagation',
      'private',
      '/bin/sh',
      '-c',
      MOUNT_ALL,
      'sh',
      ...mounts,
      '--',
      SETPRIV,
      `--reuid=${uid}`,
      `--regid=${gid}`,
      '--clear-groups',
      '--',
      ...command,
    ];
  }
}

/**
 * Where the stand-ins can go: the temp folder, else the system's own. A TMPDIR the sandbox's uid may not enter (a root
 * shell's `mktemp -d`, pam_tmpdir's /tmp/user/0, mode 700) would hide the stand-ins from bwrap as the sources were.
 */
function standInParents(): string[] {
  return [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'];
}

/**
 * The first of `parents` that `owner` may enter (every folder above it too): the stand-ins' folder is made there. None:
 * a SandboxSetupError naming them and the fix (nothing the sandbox can bind from then).
 */
export async function standInParentFor(parents: string[], owner: HostUser): Promise<string> {
  const closed: Blocked[] = [];
  for (const parent of new Set(parents)) {
    if (!existsSync(parent) || !statSync(parent).isDirectory()) continue;
    const blocked = await blockedFor(join(parent, 'stand-in'), owner, { read: false });
    if (!blocked) return parent;
    closed.push(blocked);
  }
  const named = closed.map((b) => `${b.path} has mode ${b.mode.toString(8)}`).join('; ');
  throw new SandboxSetupError(
    `the sandbox's uid ${owner.uid} may enter none of ${parents.join(', ')} (${named || 'none exists'}), so there is ` +
      'no folder for the empty stand-ins that its bind sources behind a folder it may not enter are mounted on. ' +
      'Fix: set TMPDIR to a folder every user may enter (TMPDIR=/tmp), or ' +
      `chmod o+x ${shellQuote(closed[0]?.path ?? '/tmp')}`,
  );
}

/**
 * The empty stand-ins, made once per process under one folder every uid may enter (removed at exit). Mounts made in a
 * sandbox's namespace are its own, so the i-th folder (or file) stands in for a different source in each sandbox.
 */
let standInRootMade: Promise<string> | undefined;
function standInRoot(owner: HostUser): Promise<string> {
  standInRootMade ??= standInParentFor(standInParents(), owner).then(
    (parent) => {
      const made = mkdtempSync(join(parent, 'sheetbench-binds-'));
      chmodSync(made, 0o755);
      process.once('exit', () => rmSync(made, { recursive: true, force: true }));
      return made;
    },
    (err: unknown) => {
      standInRootMade = undefined; // refused: checked again next time (TMPDIR or a mode may have been fixed)
      throw err;
    },
  );
  return standInRootMade;
}

function standIn(root: string, kind: 'dir' | 'file', i: number): string {
  const path = join(root, `${kind}-${i}`);
  if (!existsSync(path)) {
    if (kind === 'dir') mkdirSync(path, { mode: 0o755 });
    else writeFileSync(path, '', { mode: 0o644 });
  }
  return path;
}
