import { readFile, stat } from 'node:fs/promises';

/** How many index files are kept: a few datasets planned in one process (the server's, the CLI's). */
const KEEP = 8;

/** Index files read recently, by path, with the size and modification time they had when read. */
const recent = new Map<string, { stamp: string; bytes: Promise<Buffer> }>();

/**
 * A dataset's index file (dataset.json, data.json) as bytes, read once for detection, loading and the content version
 * alike: benchmarks are asked in turn whether a folder is theirs, and several of them look at the same file. A file
 * whose size or modification time changed is read again.
 */
export async function readIndexFile(file: string): Promise<Buffer> {
  const s = await stat(file);
  const stamp = `${s.size}:${s.mtimeMs}`;
  const hit = recent.get(file);
  if (hit?.stamp === stamp) return hit.bytes;
  const bytes = readFile(file);
  recent.delete(file);
  recent.set(file, { stamp, bytes });
  if (recent.size > KEEP) recent.delete(recent.keys().next().value as string);
  // A failed read is not kept (the caller sees the failure; the next call reads again).
  void bytes.catch(() => recent.delete(file));
  return bytes;
}
