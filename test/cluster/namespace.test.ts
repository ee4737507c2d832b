import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../../lib/temporal/connection';
import { connectWorkerConnection } from '../../workers/connection';
import { prepareNamespace } from '../../lib/temporal/namespace';
import { SA } from '../../lib/temporal/searchAttributes';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';

// On the dev server by default; on scripts/cluster.sh's PostgreSQL-backed server with SHEETBENCH_CLUSTER=1.
describe('namespace set-up on a server that has none (what a production server starts with)', () => {
  let temporal: TestTemporal;
  beforeAll(async () => {
    temporal = await startTestTemporal();
  });
  afterAll(async () => temporal?.stop());

  it('refuses a missing namespace with a message naming it and the server', async () => {
    const namespace = `missing-${randomUUID().slice(0, 8)}`;
    const expected = new RegExp(
      `namespace "${namespace}" does not exist on the server at ${temporal.address.replace(/\./g, '\\.')}`,
    );
    await expect(connectClient({ address: temporal.address, namespace })).rejects.toThrow(expected);
    await expect(connectWorkerConnection({ address: temporal.address, namespace })).rejects.toThrow(expected);
  });

  it('registers the namespace with its retention and the project search attributes, idempotently', async () => {
    const namespace = `fresh-${randomUUID().slice(0, 8)}`;
    await prepareNamespace(temporal.address, namespace, 30);
    await prepareNamespace(temporal.address, namespace, 30);
    const client = await connectClient({ address: temporal.address, namespace });
    await client.connection.close();
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const desc = await connection.workflowService.describeNamespace({ namespace });
      expect(Number(desc.config?.workflowExecutionRetentionTtl?.seconds)).toBe(30 * 86_400);
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      expect(Object.keys(customAttributes ?? {})).toEqual(expect.arrayContaining(Object.values(SA).map((k) => k.name)));
    } finally {
      await connection.close();
    }
  });
});
