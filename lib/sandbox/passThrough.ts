import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockedFor, type HostUser } from './reachable';

export const UNSHARE = '/usr/bin/unshare';
export const SETPRIV = '/usr/bin/setpriv';

/** Bind-mounts each "source target" pair given before `--`, then exec's the rest (run by root in its own mount namespace). */
const MOUNT_ALL = 'while [ "$1" != -- ]; do /bin/mount --bind "$1" "$2" || exit 96; shift 2; done; shift; exec "$@"';

/**
 * Bind sources the sandbox's uid cannot reach through the folders above them (a checkout or run folder inside a
 * `mktemp -d` folder, mode 700, with the worker running as root). bwrap opens its sources as that uid and resolves
 * them by path (0.8's `--bind-fd` too: it takes the descriptor's path and walks it), so a folder above one it may not
 * enter stops it. Here root mounts each such source, in a mount namespace of the sandbox's own (private: the host's
 * mounts are unchanged and the namespace ends with the sandbox), onto an empty stand-in under a folder every uid may
 * enter; the command then drops to the sandbox's uid and bwrap binds the stand-ins. Sources it can reach are used as
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
    const standIns = new Map<string, string>();
    const taken = { dir: 0, file: 0 };
    for (const source of blocked) {
      const kind = statSync(source).isDirectory() ? 'dir' : 'file';
      standIns.set(source, standIn(kind, taken[kind]++));
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
 * The empty stand-ins, made once per process under one folder every uid may enter (removed at exit). Mounts made in a
 * sandbox's namespace are its own, so the i-th folder (or file) stands in for a different source in each sandbox.
 */
let standInRoot: string | undefined;
function standIn(kind: 'dir' | 'file', i: number): string {
  if (!standInRoot) {
    const made = mkdtempSync(join(tmpdir(), 'sheetbench-binds-'));
    chmodSync(made, 0o755);
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    standInRoot = made;
  }
  const path = join(standInRoot, `${kind}-${i}`);
  if (!existsSync(path)) {
    if (kind === 'dir') mkdirSync(path, { mode: 0o755 });
    else writeFileSync(path, '', { mode: 0o644 });
  }
  return path;
}
