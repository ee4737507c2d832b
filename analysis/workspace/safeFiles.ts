import { constants } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { ToolRefusal } from '../tools/types';
import { isInside, resolveInWorkspace } from './paths';
import { formatBytes } from './quota';

/**
 * Sandboxed code may swap a checked path for a symlink before the worker opens it, so the opened file itself is
 * checked (its /proc/self/fd link must lie inside the workspace) before a byte is read or written.
 */
async function openChecked(
  root: string,
  relPath: string,
  flags: number,
): Promise<{ handle: FileHandle; path: string }> {
  const path = await resolveInWorkspace(root, relPath);
  let handle: FileHandle;
  try {
    handle = await open(path, flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ToolRefusal(`${relPath} does not exist in the workspace`);
    if (code === 'ELOOP') throw new ToolRefusal(`${relPath} is a symlink; refused`);
    if (code === 'EISDIR') throw new ToolRefusal(`${relPath} is a folder, not a file`);
    throw err;
  }
  const target = await readlink(`/proc/self/fd/${handle.fd}`);
  if (!isInside(await realpath(root), target)) {
    await handle.close();
    throw new ToolRefusal(`${relPath} resolves outside the workspace (symlink), refused`);
  }
  return { handle, path };
}

/** Reads up to `maxBytes` of a workspace file; `size` is the whole file's. */
export async function readInWorkspace(
  root: string,
  relPath: string,
  maxBytes: number,
): Promise<{ data: Buffer; size: number }> {
  const { handle } = await openChecked(root, relPath, constants.O_RDONLY);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new ToolRefusal(`${relPath} is not a file`);
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { data: buffer.subarray(0, bytesRead), size: info.size };
  } finally {
    await handle.close();
  }
}

/** Reads a whole workspace file, refusing one over `maxBytes`. */
export async function readWholeInWorkspace(root: string, relPath: string, maxBytes: number): Promise<Buffer> {
  const { data, size } = await readInWorkspace(root, relPath, maxBytes);
  if (size > maxBytes)
    throw new ToolRefusal(
      `${relPath} is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} that may be read here`,
    );
  return data;
}

/** Creates or replaces a workspace file (never through a symlink); returns its host path. */
export async function writeInWorkspace(root: string, relPath: string, data: Buffer | string): Promise<string> {
  const { handle, path } = await openChecked(
    root,
    relPath,
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW,
  );
  try {
    await handle.truncate(0);
    await handle.writeFile(data);
    return path;
  } finally {
    await handle.close();
  }
}
