import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';

/** relative path → "mtimeNs:size" for every regular file (symlinks are not followed). */
export type Snapshot = Map<string, string>;

const MAX_ENTRIES = 20_000;

/**
 * Taken before and after every execution: synchronous calls (a work dir holds a few files, at most MAX_ENTRIES are
 * read), each cheaper than the thread-pool round trip the promise API adds.
 */
export async function snapshotDir(root: string): Promise<Snapshot> {
  const snap: Snapshot = new Map();
  const walk = (dir: string): void => {
    for (const entry of entriesOf(dir)) {
      if (snap.size >= MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stamp = stampOf(path);
        if (stamp) snap.set(relative(root, path), stamp);
      }
    }
  };
  walk(root);
  return snap;
}

/** "mtimeNs:size", or undefined for a file removed meanwhile (not in the snapshot). */
function stampOf(path: string): string | undefined {
  try {
    const info = lstatSync(path, { bigint: true });
    return `${info.mtimeNs}:${info.size}`;
  } catch {
    return undefined;
  }
}

/** A folder's entries; none for a folder the code removed meanwhile (or made unreadable). */
function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Files created or changed between two snapshots, sorted. */
export function changedFiles(before: Snapshot, after: Snapshot): string[] {
  return [...after]
    .filter(([path, stamp]) => before.get(path) !== stamp)
    .map(([path]) => path)
    .sort();
}
