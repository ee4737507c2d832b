import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { locateRun, located, type LocatedRun, type RunNotLocated } from '../../client/runLocation';

export interface RunFolderSources {
  /** The folder holding one folder per run (as the runs list). */
  runsDir: string;
  /** The process's Temporal client: runs whose folder is elsewhere (`run --out DIR`) are found through their memo. */
  client?: Client;
  /** Where relative memo paths are joined (config `artifacts.root`). */
  artifactsRoot?: string;
}

export type RunFolder = LocatedRun | { error: string; status: 400 | 404 | 503 };

const STATUS: Record<RunNotLocated['kind'], 400 | 404 | 503> = {
  'bad-id': 400,
  unknown: 404,
  'not-this-run': 404,
  'outside-root': 404,
  refused: 404, // Temporal refused the question: as unknown as a run it does not have
  unreachable: 503,
};

/**
 * A run by its id, for the run, task, report and comparison routes: found as the CLI finds it (`client/runLocation`:
 * the runs folder, else the folder the run's own workflow records, only when it holds this very run). The reply's
 * error names no path of this host; every file served from the folder is then confined to it (`confinedFile`).
 */
export async function findRunFolder(src: RunFolderSources, id: string): Promise<RunFolder> {
  const found = await locateRun({ runsDir: src.runsDir, temporal: src.client, artifactsRoot: src.artifactsRoot }, id);
  return located(found) ? found : { error: found.message, status: STATUS[found.kind] };
}

/** The real path of file (absolute, or relative to dir) when it lies inside dir's real path, else undefined. */
export async function confinedFile(dir: string, file: string): Promise<string | undefined> {
  try {
    const root = await realpath(dir);
    const real = await realpath(path.resolve(root, file));
    return real.startsWith(root + path.sep) ? real : undefined;
  } catch {
    return undefined; // no such file (or unreadable): not served
  }
}
