import { readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from './staleInstances';

/**
 * The chart export's temporary folders (`<tmp>/sb-charts-<owner pid>-XXXXXX`: soffice's profile and the PNGs) are
 * removed by the export that made them, but not when its worker is killed with SIGKILL. A worker removes, before its
 * first export, those whose owner is gone. A folder named before the owner's pid was in the name
 * (`sb-charts-XXXXXX`) is removed once it is older than OLD_STYLE_AGE_MS (an export lasts minutes at most).
 */
const PREFIX = 'sb-charts-';
const OLD_STYLE_AGE_MS = 60 * 60 * 1000;

/** The mkdtemp prefix of this process's chart-export folders. */
export function chartFolderPrefix(root = os.tmpdir()): string {
  return path.join(root, `${PREFIX}${process.pid}-`);
}

async function isStale(folder: string, name: string, now: number): Promise<boolean> {
  const owner = name.slice(PREFIX.length).match(/^(\d+)-/);
  if (owner) return !isAlive(Number(owner[1]));
  const info = await stat(folder).catch(() => undefined);
  return info !== undefined && info.isDirectory() && now - info.mtimeMs > OLD_STYLE_AGE_MS;
}

/** Removes the chart-export folders under `root` whose owner is gone; returns their paths. */
export async function removeStaleChartFolders(root = os.tmpdir(), now = Date.now()): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names.filter((n) => n.startsWith(PREFIX))) {
    const folder = path.join(root, name);
    if (!(await isStale(folder, name, now))) continue;
    await rm(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}
