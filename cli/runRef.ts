import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { locateRun as lookUpRun, located, type RunLookup, type RunNotLocated } from '../client/runLocation';
import { CliError, EXIT } from './exitCodes';
import { loadConfig } from '../config/load';

/** A run folder given directly (it holds run.json, or the argument is a path), else undefined (then it is a run id). */
export function runFolderArg(run: string): string | undefined {
  return existsSync(path.join(run, 'run.json')) || /[\\/]/.test(run) ? path.resolve(run) : undefined;
}

/**
 * A run named by its folder or by its id, from any directory, for commands that drive its workflow (resume, rerun): the
 * id is looked up in Temporal first, whose memo holds the run folder (relative to the artifacts root, or absolute);
 * `runs/<id>` is the fallback for runs Temporal no longer has (`client/runLocation`, as the web server finds runs).
 */
export async function locateRun(run: string, client: Client, artifactsRoot: string | undefined): Promise<string> {
  const direct = directFolder(run);
  if (direct) return direct;
  return byId(run, { runsDir: 'runs', temporal: client, artifactsRoot, prefer: 'workflow' });
}

/**
 * A run folder for commands that only read it (report, show, compare): the folder itself, else `runs/<id>`, else the
 * folder Temporal's memo names (only then is a Temporal server asked, or started).
 */
export async function findRunFolder(run: string): Promise<string> {
  const direct = runFolderArg(run); // a path: the command names what is missing in it
  if (direct) return direct;
  const config = loadConfig();
  let client: Client | undefined;
  // Loaded only when asked: the Temporal client's modules are most of the start-up CPU of show, compare and report,
  // which mostly name a run folder or a run under runs/.
  const connect = async (): Promise<Client> => {
    const [{ connectClient }, { resolveTemporal }] = await Promise.all([
      import('../lib/temporal/connection'),
      import('./temporalSession'),
    ]);
    client = await connectClient(await resolveTemporal(config, () => undefined));
    return client;
  };
  try {
    return await byId(run, { runsDir: 'runs', temporal: connect, artifactsRoot: config.artifacts.root });
  } finally {
    await client?.connection.close();
  }
}

/** The folder a path argument names (it must hold run.json), or undefined when the argument is a run id. */
function directFolder(run: string): string | undefined {
  const direct = runFolderArg(run);
  if (direct && !existsSync(path.join(direct, 'run.json')))
    throw new CliError(`unknown run ${run}: no run.json in ${direct}`, EXIT.notFound);
  return direct;
}

async function byId(run: string, lookup: RunLookup): Promise<string> {
  const found = await lookUpRun(lookup, run);
  if (located(found)) return found.dir;
  throw new CliError(notFoundText(run, found), EXIT_OF[found.kind]);
}

const EXIT_OF: Record<RunNotLocated['kind'], number> = {
  'bad-id': EXIT.notFound,
  unknown: EXIT.notFound,
  'not-this-run': EXIT.notFound,
  'outside-root': EXIT.config,
  unreachable: EXIT.server,
  refused: EXIT.server,
};

function notFoundText(run: string, why: RunNotLocated): string {
  if (why.kind === 'unknown')
    return `unknown run ${run}: not a run folder, not a run known to Temporal, and no run.json in runs/${run}`;
  if (why.kind === 'unreachable' || why.kind === 'refused')
    return `Temporal server did not answer about run ${run}: ${why.cause ?? why.message}`;
  return `${why.message}${why.cause ? ` (${why.cause})` : ''}`;
}
