import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DevServerStartError,
  ensureDevServer,
  type DevServer,
  type DevServerOptions,
} from '../../lib/temporal/devServer';
import { z } from 'zod';
import { prepareNamespace } from '../../lib/temporal/namespace';
import { CLUSTER_ADDRESS, onCluster, restartClusterServer, useCluster } from './cluster';
import { claimPort, type PortClaim } from './portClaim';

/** The namespace of a server a test owns (and of the cluster's, which all tests share). */
export const TEST_NAMESPACE = 'sheetbench-test';

/** A port no other test is given for the rest of this process (see portClaim: no race with a concurrent test). */
export async function freePort(): Promise<number> {
  return (await claimPort()).port;
}

export interface TestTemporal {
  server: DevServer;
  address: string;
  /** The namespace this test's workflows run in: its own on the suite's shared server. */
  namespace: string;
  stateDir: string;
  port: number;
  uiPort: number;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestTemporalOptions extends Pick<DevServerOptions, 'tuning' | 'metricsPort'> {
  /** A server of the test's own even under the suite's shared one: the test restarts, stops or pauses it. */
  own?: boolean;
  /** Its SQLite state here (a server of its own). */
  stateDir?: string;
}

/**
 * The Temporal server a test runs on: a namespace of its own on the suite's shared dev server (test/temporalSetup.ts:
 * one `temporal server start-dev` for the whole run, where each integration file used to start one, ~0.9 CPU-s each);
 * a real dev server with SQLite state in a temp folder, on free ports, owned by the test, when the test asks for one
 * (`own`, a state folder, tuning, metrics) or runs outside the suite; or, with SHEETBENCH_CLUSTER=1, the already running
 * cluster of scripts/cluster.sh (restart = its server process; stop = nothing).
 */
export async function startTestTemporal(opts: TestTemporalOptions = {}): Promise<TestTemporal> {
  const stateDir = opts.stateDir ?? mkdtempSync(path.join(os.tmpdir(), 'sb-temporal-'));
  if (onCluster) return clusterTemporal(stateDir);
  const shared = sharedTemporal();
  const ownWanted = opts.own || opts.stateDir || opts.tuning || opts.metricsPort;
  if (shared && !ownWanted) return namespaceOnShared(shared, stateDir);
  const extra = { tuning: opts.tuning, metricsPort: opts.metricsPort };
  for (let attempt = 1; ; attempt++) {
    // Claimed, not merely free: held until stop(), so a restart binds the same ports with no other test in between.
    const claims = [await claimPort(), await claimPort()];
    const [port, uiPort] = claims.map((c) => c.port);
    const server = { stateDir, port, uiPort, namespace: TEST_NAMESPACE, ...TEST_SERVER, ...extra };
    try {
      return ownedTemporal(server, await ensureDevServer(server), claims);
    } catch (err) {
      for (const claim of claims) claim.release();
      // A program outside the tests may have bound a claimed port after it was checked: pick others.
      if (!(err instanceof DevServerStartError && err.takenPort !== undefined && attempt < 3)) throw err;
    }
  }
}

/** A test server's lifetime settings: tied to the process that started it. */
export const TEST_SERVER = { retentionDays: 30, detached: false, startTimeoutMs: 90_000 } as const;

/** The environment variable naming the suite's shared server to the test processes (test/temporalSetup.ts). */
export const SHARED_TEMPORAL_ENV = 'SHEETBENCH_TEST_TEMPORAL';

const sharedServerSchema = z.object({ port: z.number().int(), uiPort: z.number().int() });
type SharedServer = z.infer<typeof sharedServerSchema>;

function sharedTemporal(): SharedServer | undefined {
  const value = process.env[SHARED_TEMPORAL_ENV];
  return value ? sharedServerSchema.parse(JSON.parse(value)) : undefined;
}

/** A fresh namespace on the shared server: no other test's workflows, runs or search results in it. */
async function namespaceOnShared(shared: SharedServer, stateDir: string): Promise<TestTemporal> {
  const address = `127.0.0.1:${shared.port}`;
  const namespace = `${TEST_NAMESPACE}-${randomUUID().slice(0, 8)}`;
  await prepareNamespace(address, namespace, TEST_SERVER.retentionDays);
  const notOwned = (what: string) =>
    new Error(`${what}: the suite's shared Temporal server is not this test's; start one with { own: true }`);
  return {
    get server(): DevServer {
      throw notOwned('the server process');
    },
    address,
    namespace,
    stateDir,
    port: shared.port,
    uiPort: shared.uiPort,
    restart: () => Promise.reject(notOwned('restart')),
    stop: async () => {},
  };
}

function ownedTemporal(opts: DevServerOptions, server: DevServer, claims: PortClaim[]): TestTemporal {
  const handle: TestTemporal = {
    server,
    address: `127.0.0.1:${opts.port}`,
    namespace: opts.namespace,
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
    namespace: TEST_NAMESPACE,
    stateDir,
    port,
    uiPort: -1,
    restart: () => restartClusterServer(),
    stop: async () => {},
  };
}
