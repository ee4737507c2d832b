import { lstat, readdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { WorkspaceFile } from '../tools/types';
import { INTERNAL_DIR } from './paths';

/** Kind of a file from its extension (what the UI and the model need to know to use it). */
export function fileType(name: string): string {
  const ext = extname(name).slice(1).toLowerCase();
  return ext || 'file';
}

export function describeFile(relPath: string, size: number): WorkspaceFile {
  return { filename: basename(relPath), path: relPath, type: fileType(relPath), size };
}

/** Every regular file under the workspace (symlinks not followed, the tools' own folder skipped). */
export async function listWorkspaceFiles(root: string, sub = ''): Promise<WorkspaceFile[]> {
  const out: WorkspaceFile[] = [];
  const entries = await readdir(join(root, sub), { withFileTypes: true }).catch(() => []); // no such folder yet: empty
  for (const entry of entries) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (rel === INTERNAL_DIR) continue;
    if (entry.isDirectory()) out.push(...(await listWorkspaceFiles(root, rel)));
    else if (entry.isFile()) out.push(describeFile(rel, (await lstat(join(root, rel))).size));
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Bytes used by the workspace (every file, including the tools' own). */
export async function workspaceBytes(root: string): Promise<number> {
  let total = 0;
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []); // no workspace yet: empty
  for (const entry of entries) {
    if (entry.isFile()) total += (await lstat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
