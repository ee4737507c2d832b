import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DevServerStartError,
  ensureDevServer,
  type DevServer,
  type DevServerOptions,
} from '../../lib/temporal/devServer';
import { CLUSTER_ADDRESS, onCluster, restartClusterServer, useCluster } from './cluster';
import { claimPort, type PortClaim } from './portClaim';

export const TEST_NAMESPACE = 'sheetbench-test';

/** A port no other test is given for the rest of this process (see portClaim: no race with a concurrent test). */
export async function freePort(): Promise<number> {
  return (await claimPort()).port;
}

export interface TestTemporal {
  server: DevServer;
  address: string;
  stateDir: string;
  port: number;
  uiPort: number;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real `temporal server start-dev` with SQLite state in a temp folder, on free ports, owned by the test; or, with
 * SHEETBENCH_CLUSTER=1, the already running cluster of scripts/cluster.sh (restart = its server process; stop = nothing).
 */
export async function startTestTemporal(
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'sb-temporal-')),
  extra: Pick<DevServerOptions, 'tuning' | 'metricsPort'> = {},
): Promise<TestTemporal> {
  if (onCluster) return clusterTemporal(stateDir);
  for (let attempt = 1; ; attempt++) {
    // Claimed, not merely free: held until stop(), so a restart binds the same ports with no other test in between.
    const claims = [await claimPort(), await claimPort()];
    const [port, uiPort] = claims.map((c) => c.port);
    const opts = {
      stateDir,
      port,
      uiPort,
      namespace: TEST_NAMESPACE,
      retentionDays: 30,
      detached: false,
      startTimeoutMs: 90_000,
      ...extra,
    };
    try {
      return ownedTemporal(opts, await ensureDevServer(opts), claims);
    } catch (err) {
      for (const claim of claims) claim.release();
      // A program outside the tests may have bound a claimed port after it was checked: pick others.
      if (!(err instanceof DevServerStartError && err.takenPort !== undefined && attempt < 3)) throw err;
    }
  }
}

function ownedTemporal(opts: DevServerOptions, server: DevServer, claims: PortClaim[]): TestTemporal {
  const handle: TestTemporal = {
    server,
    address: `127.0.0.1:${opts.port}`,
    stateDir: opts.stateDir,
    port: opts.port,
    uiPort: opts.uiPort,
    async restart() {
      await handle.server.stop();
      handle.server = await ensureDevServer(opts);
    },
    async stop() {
      await handle.server.stop();
      for (const claim of claims) claim.release();
    },
  };
  return handle;
}

async function clusterTemporal(stateDir: string): Promise<TestTemporal> {
  await useCluster(TEST_NAMESPACE);
  const port = Number(CLUSTER_ADDRESS.split(':')[1]);
  const server: DevServer = { address: CLUSTER_ADDRESS, uiUrl: '', pid: -1, reused: true, stop: async () => {} };
  return {
    server,
    address: CLUSTER_ADDRESS,
    stateDir,
    port,
    uiPort: -1,
    restart: () => restartClusterServer(),
    stop: async () => {},
  };
}
