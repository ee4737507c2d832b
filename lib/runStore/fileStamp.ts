/**
 * A file's size and modification time: what a cache of results computed from dataset files (the floor, previews)
 * checks before it trusts an entry (a replaced workbook gets a new stamp and is computed again).
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const fileStampSchema = z.object({ size: z.number(), mtimeMs: z.number() });
export type FileStamp = z.infer<typeof fileStampSchema>;

/** The file's stamp, or undefined when it cannot be read (no stamp never matches: the entry is computed again). */
export async function stampOf(file: string): Promise<FileStamp | undefined> {
  const s = await stat(file).catch(() => undefined);
  return s && { size: s.size, mtimeMs: s.mtimeMs };
}

export const sameStamp = (a: FileStamp | undefined, b: FileStamp): boolean =>
  a?.size === b.size && a.mtimeMs === b.mtimeMs;

/** `$XDG_CACHE_HOME/sheetbench/<name>` (default `~/.cache/sheetbench/<name>`): where dataset-derived results are kept. */
export function userCacheDir(name: string): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'sheetbench', name);
}
