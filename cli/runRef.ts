import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { fromPayloadPath, ArtifactsRootError } from '../lib/runStore/artifactsRoot';
import { CliError, EXIT } from './exitCodes';
import { loadConfig } from '../config/load';

/** A run folder given directly (it holds run.json, or the argument is a path), else undefined (then it is a run id). */
export function runFolderArg(run: string): string | undefined {
  return existsSync(path.join(run, 'run.json')) || /[\\/]/.test(run) ? path.resolve(run) : undefined;
}

/**
 * A run named by its folder or by its id, from any directory: the id is looked up in Temporal, whose memo holds the
 * run folder (relative to the artifacts root, or absolute); `runs/<id>` is the fallback for runs Temporal no longer has.
 */
export async function locateRun(run: string, client: Client, artifactsRoot: string | undefined): Promise<string> {
  const direct = runFolderArg(run);
  if (direct && existsSync(path.join(direct, 'run.json'))) return direct;
  if (direct) throw new CliError(`unknown run ${run}: no run.json in ${direct}`, EXIT.notFound);
  const memoDir = await runDirFromMemo(run, client);
  if (memoDir !== undefined) {
    let runDir: string;
    try {
      runDir = fromPayloadPath(memoDir, artifactsRoot);
    } catch (err) {
      if (err instanceof ArtifactsRootError) throw new CliError(`run ${run}: ${err.message}`, EXIT.config);
      throw err;
    }
    if (existsSync(path.join(runDir, 'run.json'))) return path.resolve(runDir);
    throw new CliError(
      `run ${run}: Temporal records its folder as ${memoDir}, but there is no run.json in ${runDir} on this host (artifacts root ${artifactsRoot ?? 'unset'})`,
      EXIT.notFound,
    );
  }
  const local = path.resolve('runs', run);
  if (existsSync(path.join(local, 'run.json'))) return local;
  throw new CliError(
    `unknown run ${run}: not a run folder, not a run known to Temporal, and no run.json in runs/${run}`,
    EXIT.notFound,
  );
}

async function runDirFromMemo(runId: string, client: Client): Promise<string | undefined> {
  const { WorkflowNotFoundError } = await import('@temporalio/client');
  try {
    const memo = (await client.workflow.getHandle(runId).describe()).memo as { runDir?: unknown } | undefined;
    return typeof memo?.runDir === 'string' ? memo.runDir : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw new CliError(`Temporal server did not answer about run ${runId}: ${(err as Error).message}`, EXIT.server);
  }
}

/**
 * A run folder for commands that only read it (report, show, compare): the folder itself, else `runs/<id>`, else the
 * folder Temporal's memo names (only then is a Temporal server asked, or started).
 */
export async function findRunFolder(run: string): Promise<string> {
  const direct = runFolderArg(run);
  if (direct) return direct;
  const local = path.resolve('runs', run);
  if (existsSync(path.join(local, 'run.json'))) return local;
  // Loaded only here: the Temporal client's modules are most of the start-up CPU of show, compare and report, which
  // mostly name a run folder or a run under runs/.
  const [{ connectClient }, { resolveTemporal }] = await Promise.all([
    import('../lib/temporal/connection'),
    import('./temporalSession'),
  ]);
  const config = loadConfig();
  const client = await connectClient(await resolveTemporal(config, () => undefined));
  try {
    return await locateRun(run, client, config.artifacts.root);
  } finally {
    await client.connection.close();
  }
}
