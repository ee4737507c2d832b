import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ToolRefusal } from '../tools/types';

/** Folder of the workspace the tools keep for themselves (markers); hidden from listings. */
export const INTERNAL_DIR = '.sheetbench';

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Refuses what the model may not name: absolute paths, `..`, URLs, NUL bytes, the tools' own folder. */
export function checkRelativePath(relPath: string): string {
  const clean = relPath.trim().replace(/\\/g, '/');
  if (clean.includes('\0')) throw new ToolRefusal('path contains a NUL byte');
  if (isAbsolute(clean) || /^[a-z]:\//i.test(clean))
    throw new ToolRefusal(
      `absolute paths are refused (${relPath}): use a path relative to the workspace, e.g. "data.csv"`,
    );
  const parts = clean.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..'))
    throw new ToolRefusal(`".." is refused in paths (${relPath}): everything lives inside the workspace`);
  if (parts[0] === INTERNAL_DIR) throw new ToolRefusal(`${INTERNAL_DIR}/ is reserved for the tools`);
  return parts.join('/');
}

/**
 * Host path of a workspace-relative path, after checking that no symlink on the way leads out: the deepest existing
 * ancestor (or the file itself) must resolve inside the workspace.
 */
export async function resolveInWorkspace(root: string, relPath: string): Promise<string> {
  const rel = checkRelativePath(relPath);
  const realRoot = await realpath(root);
  const path = resolve(realRoot, rel);
  let probe = path;
  for (;;) {
    const exists = await lstat(probe).then(
      () => true,
      () => false,
    );
    if (exists) break;
    if (probe === realRoot) break;
    probe = dirname(probe);
  }
  const real = await realpath(probe).catch(() => {
    throw new ToolRefusal(`${relPath} is a broken symlink`);
  });
  if (!isInside(realRoot, real)) throw new ToolRefusal(`${relPath} resolves outside the workspace (symlink), refused`);
  return path;
}

export function toWorkspaceRelative(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
