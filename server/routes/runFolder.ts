import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { recordedRun } from '../../client/runLocation';
import { ArtifactsRootError, fromPayloadPath } from '../../lib/runStore/artifactsRoot';
import { pathExists } from '../../lib/runStore/files';
import { readManifest, type RunManifest } from '../../lib/runStore/manifest';

export interface RunFolderSources {
  /** The folder holding one folder per run (as the runs list). */
  runsDir: string;
  /** The process's Temporal client: runs whose folder is elsewhere (`run --out DIR`) are found through their memo. */
  client?: Client;
  /** Where relative memo paths are joined (config `artifacts.root`). */
  artifactsRoot?: string;
}

/** Ids Temporal is asked about: what `run --run-id` and generated ids look like (no separators, no controls). */
const PLAUSIBLE_RUN_ID = /^[\w.@:+=-]{1,200}$/;
const TEMPORAL_DEADLINE_MS = 5000;

export type RunFolder = { dir: string; manifest: RunManifest } | { error: string; status: 400 | 404 | 503 };

/**
 * A run by its id, wherever the list found it: `runsDir/<id>` holding a run.json, else the folder the run's own workflow
 * names in its memo (as `status`, `report` and `resume` find it). That folder is served only when it is this run's:
 * a run.json that is a regular file, names this run id and this workflow's experiment. A memo naming another run's
 * folder, a folder without a run, or a path that leaves the artifacts root is refused as an unknown run; every file
 * served from the folder is then confined to it by the route.
 */
export async function findRunFolder(src: RunFolderSources, id: string): Promise<RunFolder> {
  const runsDir = path.resolve(src.runsDir);
  const local = path.join(runsDir, id);
  if (!id || path.dirname(local) !== runsDir || id === '.' || id === '..')
    return { error: `bad run id ${JSON.stringify(id)}`, status: 400 };
  if (await pathExists(path.join(local, 'run.json'))) return readRun(local, id, `runs/${id}`);
  if (!src.client || !PLAUSIBLE_RUN_ID.test(id)) return { error: `no run ${id}`, status: 404 };
  const client = src.client;
  let recorded;
  try {
    recorded = await client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () => recordedRun(client, id));
  } catch (err) {
    if (!unreachable(err)) return { error: `no run ${id}`, status: 404 };
    return { error: `run ${id}: Temporal did not answer (${(err as Error).message})`, status: 503 };
  }
  if (!recorded) return { error: `no run ${id}`, status: 404 };
  return memoFolder(src, id, recorded);
}

async function memoFolder(
  src: RunFolderSources,
  id: string,
  recorded: { runDir: string; experimentHash?: string },
): Promise<RunFolder> {
  const notThisRun = (why: string): RunFolder => ({
    error: `no run ${id}: the folder its workflow names ${why}`,
    status: 404,
  });
  let dir: string;
  try {
    dir = path.resolve(fromPayloadPath(recorded.runDir, src.artifactsRoot));
  } catch (err) {
    if (err instanceof ArtifactsRootError) return notThisRun('is not a folder of this host');
    throw err;
  }
  const runJson = await lstat(path.join(dir, 'run.json')).catch(() => undefined); // no (readable) run.json: no run
  if (!runJson?.isFile()) return notThisRun('holds no run');
  const run = await readRun(dir, id, `the folder of run ${id}`);
  if ('error' in run) return notThisRun('holds no readable run');
  if (run.manifest.runId !== id) return notThisRun('holds another run');
  if (recorded.experimentHash !== undefined && run.manifest.experimentHash !== recorded.experimentHash)
    return notThisRun("holds another experiment than the workflow's");
  return { dir: await realpath(dir), manifest: run.manifest };
}

async function readRun(dir: string, id: string, shownAs: string): Promise<RunFolder> {
  try {
    return { dir, manifest: await readManifest(dir) };
  } catch (err) {
    return { error: `run ${id} cannot be read: ${(err as Error).message.replace(dir, shownAs)}`, status: 404 };
  }
}

/** gRPC's UNAVAILABLE (14) or DEADLINE_EXCEEDED (4): Temporal did not answer, as opposed to refusing the question. */
function unreachable(err: unknown): boolean {
  const codeOf = (e: unknown) => (e as { code?: unknown } | undefined)?.code;
  const code = codeOf(err) ?? codeOf((err as { cause?: unknown } | undefined)?.cause);
  return code === 14 || code === 4;
}
