import path from 'node:path';
import type { Config } from '../config/schema';
import { ensureDevServer } from '../lib/temporal/devServer';
import { tlsOptions, type ResolvedTemporal } from '../lib/temporal/connection';
import { CliError, EXIT } from './exitCodes';
import { DOCTOR_HINT } from './doctor/startup';

export interface TemporalSession extends ResolvedTemporal {
  uiUrl?: string;
  embedded: boolean;
}

/** The configured cluster, or the embedded dev server (started, or reused when already running). */
export async function resolveTemporal(config: Config, log: (line: string) => void): Promise<TemporalSession> {
  const t = config.temporal;
  if (t.address) return { address: t.address, namespace: t.namespace, tls: tlsOptions(t), embedded: false };
  try {
    const server = await ensureDevServer({
      stateDir: path.resolve(t.stateDir),
      port: t.port,
      uiPort: t.uiPort,
      namespace: t.namespace,
      retentionDays: t.retentionDays,
      tuning: t.devServer,
    });
    log(
      `Temporal ${server.reused ? 'dev server (running)' : 'dev server started'} at ${server.address}; Web UI: ${server.uiUrl}`,
    );
    return { address: server.address, namespace: t.namespace, uiUrl: server.uiUrl, embedded: true };
  } catch (err) {
    throw new CliError(
      `cannot start the embedded Temporal server: ${(err as Error).message}\n${DOCTOR_HINT}`,
      EXIT.server,
    );
  }
}
