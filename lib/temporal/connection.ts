import { readFileSync } from 'node:fs';
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import type { TemporalConfig } from '../../config/schema';
import { assertNamespaceExists } from './namespace';
import { closeSafeRetryInterceptor } from './closeSafeRetry';

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

/** A client whose calls retry as the Temporal client's do, and end quietly when the connection is closed meanwhile. */
export async function connectClient(t: ResolvedTemporal): Promise<Client> {
  const connection = await Connection.connect({
    address: t.address,
    tls: t.tls,
    connectTimeout: '5s',
    interceptors: [closeSafeRetryInterceptor()],
  });
  await assertNamespaceExists(connection.workflowService, t.namespace, t.address);
  return new Client({ connection, namespace: t.namespace });
}
