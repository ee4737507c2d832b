import { constants, lchownSync, lstatSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, open, readlink, realpath, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

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

/**
 * Reads a work-dir file as the worker. Sandboxed code may have planted symlinks, so the opened file is checked: a
 * regular file inside the work dir.
 */
export async function readWorkDirFile(root: string, relPath: string): Promise<Buffer> {
  const realRoot = await realpath(root);
  // O_NONBLOCK: a FIFO planted under the name cannot hang the worker; it is then refused as not a regular file.
  const handle = await open(workDirPath(root, relPath), constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${relPath} is not a regular file`);
    const target = await readlink(`/proc/self/fd/${handle.fd}`);
    if (!inside(realRoot, target) || target === realRoot)
      throw new Error(`${relPath} resolves outside the sandbox work dir (${target})`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** What `takeWorkDirOutput` did: copied the output, found none, or refused it (`problem` says why, naming the file). */
export type TakenOutput = { taken: true } | { taken: false; problem?: string };

/**
 * Copies the work-dir file `relPath` (something the sandboxed code produced) to the host path `target` (its folder made), only when it
 * is a regular file inside the work dir with no other hard link. The code may have planted a symlink to a host file
 * (an answer workbook), a link in a parent folder, a FIFO or a device there: opened with O_NOFOLLOW (a link is refused,
 * never followed) and O_NONBLOCK (a FIFO cannot hang the worker), then the opened file itself is checked and copied
 * through its descriptor, so nothing can be swapped in between check and copy.
 */
export async function takeWorkDirOutput(root: string, relPath: string, target: string): Promise<TakenOutput> {
  const refused = (why: string): TakenOutput => ({
    taken: false,
    problem: `the output ${basename(relPath)} ${why}; not taken`,
  });
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(workDirPath(root, relPath), flags).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    if (err.code === 'ELOOP') return 'link' as const;
    throw err;
  });
  if (handle === undefined) return { taken: false };
  if (handle === 'link') return refused('is a link');
  try {
    const info = await handle.stat();
    if (!info.isFile()) return refused('is not a regular file');
    if (info.nlink !== 1) return refused('has other hard links');
    const opened = `/proc/self/fd/${handle.fd}`;
    const real = await readlink(opened);
    if (!inside(await realpath(root), real)) return refused(`lies outside the work folder (${real})`);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(opened, target);
    return { taken: true };
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
