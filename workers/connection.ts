import { NativeConnection } from '@temporalio/worker';
import { assertNamespaceExists } from '../lib/temporal/namespace';
import type { ResolvedTemporal } from '../lib/temporal/connection';
import { installWorkerRuntime } from './runtime';

/** A worker's connection to the server (the worker runtime, with its quiet logger, is installed first). */
export async function connectWorkerConnection(t: ResolvedTemporal): Promise<NativeConnection> {
  installWorkerRuntime();
  const connection = await NativeConnection.connect({ address: t.address, tls: t.tls });
  await assertNamespaceExists(connection.workflowService, t.namespace, t.address);
  return connection;
}
