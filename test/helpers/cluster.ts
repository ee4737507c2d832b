import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { prepareNamespace } from '../../lib/temporal/namespace';

/**
 * Opt-in target for the integration suites: the production-style server of `scripts/cluster.sh up` (PostgreSQL-backed,
 * 127.0.0.1:17233) instead of a per-test dev server. CI never builds it, so suites that need it skip unless
 * SHEETBENCH_CLUSTER=1.
 */
export const CLUSTER_ADDRESS = '127.0.0.1:17233';
const CLUSTER_SCRIPT = path.resolve(import.meta.dirname, '../../scripts/cluster.sh');

export const onCluster = process.env.SHEETBENCH_CLUSTER === '1';
export const CLUSTER_SKIP_REASON =
  'needs the PostgreSQL-backed Temporal cluster: run `scripts/cluster.sh up`, then SHEETBENCH_CLUSTER=1';

/** Fails with the cluster's own status lines when it is not up (PostgreSQL down, server stopped, not healthy). */
export async function useCluster(namespace: string): Promise<void> {
  const status = spawnSync(CLUSTER_SCRIPT, ['status'], { encoding: 'utf8' });
  if (status.status !== 0)
    throw new Error(`SHEETBENCH_CLUSTER=1 but the cluster is not up:\n${status.stdout}${status.stderr}`);
  await prepareNamespace(CLUSTER_ADDRESS, namespace, 30);
}

/**
 * Stops the cluster's server process (SIGTERM, or SIGKILL with `kill`) and starts it again; resolves once healthy.
 * Asynchronous: the test process keeps serving (its scripted LLM server) meanwhile.
 */
export async function restartClusterServer(kill = false): Promise<void> {
  await promisify(execFile)(CLUSTER_SCRIPT, ['restart-server', ...(kill ? ['--kill'] : [])]);
}
