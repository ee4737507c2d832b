import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { mimeTypeOf } from './mime';
import type { FileInfo } from './types';

/** The user-visible files of a workspace (hidden folders such as the tools' `.sheetbench/` left out), by path. */
export async function listWorkspaceFiles(root: string, limit = 1_000): Promise<FileInfo[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []); // no workspace yet: empty
  const visible = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((rel) => !rel.split(path.sep).some((part) => part.startsWith('.')))
    .sort()
    .slice(0, limit);
  const files = await Promise.all(
    visible.map(async (rel) => ({
      filename: path.basename(rel),
      path: rel.split(path.sep).join('/'),
      type: mimeTypeOf(rel),
      size: (await stat(path.join(root, rel))).size,
    })),
  );
  return files;
}
