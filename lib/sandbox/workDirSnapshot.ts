import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** relative path → "mtimeNs:size" for every regular file (symlinks are not followed). */
export type Snapshot = Map<string, string>;

const MAX_ENTRIES = 20_000;

export async function snapshotDir(root: string): Promise<Snapshot> {
  const snap: Snapshot = new Map();
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []); // a folder the code removed meanwhile has no entries
    for (const entry of entries) {
      if (snap.size >= MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const info = await lstat(path, { bigint: true }).catch(() => null); // a file removed meanwhile is not in the snapshot
        if (info) snap.set(relative(root, path), `${info.mtimeNs}:${info.size}`);
      }
    }
  };
  await walk(root);
  return snap;
}

/** Files created or changed between two snapshots, sorted. */
export function changedFiles(before: Snapshot, after: Snapshot): string[] {
  return [...after]
    .filter(([path, stamp]) => before.get(path) !== stamp)
    .map(([path]) => path)
    .sort();
}
