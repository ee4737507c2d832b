import { readFileSync } from 'node:fs';
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { TemporalConfig } from '../../config/schema';
import { installWorkerRuntime } from '../../workers/runtime';
import { assertNamespaceExists } from './namespace';

export interface ResolvedTemporal {
  address: string;
  namespace: string;
  tls?: ConnectionOptions['tls'];
}

export function tlsOptions(config: TemporalConfig): ConnectionOptions['tls'] {
  if (!config.tls) return undefined;
  const { serverName, caPath, certPath, keyPath } = config.tls;
  return {
    serverNameOverride: serverName,
    serverRootCACertificate: caPath ? readFileSync(caPath) : undefined,
    clientCertPair: certPath && keyPath ? { crt: readFileSync(certPath), key: readFileSync(keyPath) } : undefined,
  };
}

export async function connectClient(t: ResolvedTemporal): Promise<Client> {
  const connection = await Connection.connect({ address: t.address, tls: t.tls, connectTimeout: '5s' });
  await assertNamespaceExists(connection.workflowService, t.namespace, t.address);
  return new Client({ connection, namespace: t.namespace });
}

export async function connectWorkerConnection(t: ResolvedTemporal): Promise<NativeConnection> {
  installWorkerRuntime();
  const connection = await NativeConnection.connect({ address: t.address, tls: t.tls });
  await assertNamespaceExists(connection.workflowService, t.namespace, t.address);
  return connection;
}
