import { afterAll, describe, expect, it } from 'vitest';
import { connectClient } from '../../lib/temporal/connection';
import { onCluster } from '../helpers/cluster';
import { SHARED_TEMPORAL_ENV, startTestTemporal, type TestTemporal } from '../helpers/temporalServer';

describe.skipIf(onCluster)("the suite's shared Temporal dev server (test/temporalSetup.ts)", () => {
  const started: TestTemporal[] = [];
  const start = async (opts?: Parameters<typeof startTestTemporal>[0]) => {
    const temporal = await startTestTemporal(opts);
    started.push(temporal);
    return temporal;
  };
  afterAll(async () => {
    for (const temporal of started) await temporal.stop();
  });

  it('gives each test a namespace of its own on it: what one starts, the other does not see', async () => {
    expect(process.env[SHARED_TEMPORAL_ENV]).toBeDefined();
    const [a, b] = [await start(), await start()];
    expect(a.address).toBe(b.address);
    expect(a.namespace).not.toBe(b.namespace);
    const clientA = await connectClient({ address: a.address, namespace: a.namespace });
    const clientB = await connectClient({ address: b.address, namespace: b.namespace });
    try {
      // No worker polls this queue: the workflow is only recorded, which is all visibility needs.
      await clientA.workflow.start('noSuchWorkflow', { taskQueue: 'nobody-polls', workflowId: 'only-in-a' });
      await expect.poll(() => clientA.workflow.count().then((c) => c.count)).toBe(1);
      expect((await clientB.workflow.count()).count).toBe(0);
      await expect(clientB.workflow.getHandle('only-in-a').describe()).rejects.toThrow(/not found/i);
    } finally {
      await clientA.connection.close();
      await clientB.connection.close();
    }
  });

  it('refuses what only a server of its own allows, naming the way to get one; stop leaves the server up', async () => {
    const shared = await start();
    expect(() => shared.server.pid).toThrow(/not this test's; start one with \{ own: true \}/);
    await expect(shared.restart()).rejects.toThrow(/restart: the suite's shared Temporal server is not this test's/);
    await shared.stop();
    const again = await start();
    expect(again.address).toBe(shared.address);
    const client = await connectClient({ address: again.address, namespace: again.namespace });
    await client.connection.close();
  });

  it('a test that restarts its server gets one of its own', async () => {
    const shared = await start();
    const own = await start({ own: true });
    expect(own.address).not.toBe(shared.address);
    expect(own.server.pid).toBeGreaterThan(0);
    await own.restart();
    const client = await connectClient({ address: own.address, namespace: own.namespace });
    await client.connection.close();
  });
});
