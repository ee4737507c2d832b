import { rmSync } from 'node:fs';
import { onCluster } from './helpers/cluster';
import { SHARED_TEMPORAL_ENV, startTestTemporal } from './helpers/temporalServer';

/**
 * vitest globalSetup: one Temporal dev server for the whole run. Each test that asks for a server gets a namespace of
 * its own on it (test/helpers/temporalServer.ts); a test that restarts, stops or pauses its server still starts its own.
 * The test processes vitest forks after this setup inherit the variable naming it.
 */
export default async function startSharedTemporal(): Promise<(() => Promise<void>) | undefined> {
  if (onCluster) return undefined;
  const temporal = await startTestTemporal({ own: true });
  process.env[SHARED_TEMPORAL_ENV] = JSON.stringify({ port: temporal.port, uiPort: temporal.uiPort });
  return async () => {
    delete process.env[SHARED_TEMPORAL_ENV];
    await temporal.stop();
    rmSync(temporal.stateDir, { recursive: true, force: true });
  };
}
