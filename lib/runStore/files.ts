import { access, readdir, stat, readFile } from 'node:fs/promises';
import { mkdirSync, renameSync, writeFileSync, type Stats } from 'node:fs';
import { CorruptFileError } from '../json';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * Write-then-rename, so a crash never leaves a half-written artifact that a retry would trust. Synchronous calls: the
 * files are records of a few KiB written to the page cache, and through the promise API each step (mkdir, open,
 * write, close, rename) was a thread-pool round trip costing more CPU than the call itself (issue 33 §2).
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

export async function writeJsonAtomic(file: string, value: unknown, indent = 2): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(value, null, indent));
}

/**
 * Unchecked: prefer lib/json's `readJsonFile(path, schema)` for anything another process or version wrote. Kept for
 * callers not yet given a schema; a file that is not JSON at least names itself (CorruptFileError).
 */
export async function readJson<T>(file: string): Promise<T> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new CorruptFileError(file, `not valid JSON (${(err as Error).message})`);
  }
}

export async function readJsonOr<T>(file: string, fallback: T): Promise<T> {
  try {
    return await readJson<T>(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
}

/** The file's stats, or undefined when there is nothing at `p`; other errors (permissions) are thrown. */
export async function statIfPresent(p: string): Promise<Stats | undefined> {
  try {
    return await stat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The names in folder `dir`, or [] when it does not exist (yet); other errors (permissions, a file) are thrown. */
export async function namesInFolder(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export async function pathExists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}
