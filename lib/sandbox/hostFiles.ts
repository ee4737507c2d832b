import { lchownSync, lstatSync, readdirSync } from 'node:fs';
import { mkdir, open, readlink, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Host path of `relPath` in the work dir; refuses absolute paths and `..` escapes. */
export function workDirPath(root: string, relPath: string): string {
  const path = resolve(root, relPath);
  if (isAbsolute(relPath) || !inside(root, path) || path === root)
    throw new Error(`path ${JSON.stringify(relPath)} is outside the sandbox work dir`);
  return path;
}

/** Reads a work-dir file as the worker. Sandboxed code may have planted symlinks, so the opened file is checked. */
export async function readWorkDirFile(root: string, relPath: string): Promise<Buffer> {
  const realRoot = await realpath(root);
  const handle = await open(workDirPath(root, relPath), 'r');
  try {
    const target = await readlink(`/proc/self/fd/${handle.fd}`);
    if (!inside(realRoot, target) || target === realRoot)
      throw new Error(`${relPath} resolves outside the sandbox work dir (${target})`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export async function writeWorkDirFile(root: string, relPath: string, data: Buffer | string): Promise<string> {
  const path = workDirPath(root, relPath);
  const realRoot = await realpath(root);
  await mkdir(dirname(path), { recursive: true });
  const realParent = await realpath(dirname(path));
  if (!inside(realRoot, realParent)) throw new Error(`${relPath} resolves outside the sandbox work dir`);
  await writeFile(path, data, { flag: 'w' });
  return path;
}

/**
 * Hands a work dir (recursively, symlinks not followed) to the uid the sandboxed code runs as. lchown: a symlink the
 * code planted in a work dir that outlives its sandbox (a conversation workspace) must not hand its target over.
 * Synchronous: metadata calls on a few files, each cheaper than the thread-pool round trip the promise API adds (done
 * for every execution).
 */
export async function chownTree(path: string, owner: { uid: number; gid: number }): Promise<void> {
  chownTreeSync(path, owner);
}

function chownTreeSync(path: string, owner: { uid: number; gid: number }): void {
  const info = lstatSync(path);
  lchownSync(path, owner.uid, owner.gid);
  if (info.isDirectory()) for (const name of readdirSync(path)) chownTreeSync(join(path, name), owner);
}
