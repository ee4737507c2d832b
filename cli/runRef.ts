import { existsSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT } from './exitCodes';

/** A run named by its folder or by its id (runs/<id>). */
export function resolveRunDir(run: string): string {
  const runDir = existsSync(path.join(run, 'run.json')) ? path.resolve(run) : path.resolve('runs', run);
  if (!existsSync(path.join(runDir, 'run.json'))) throw new CliError(`unknown run ${run}: no run.json in ${run} or runs/${run}`, EXIT.notFound);
  return runDir;
}
