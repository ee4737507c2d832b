import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { Config } from '../../config/schema';
import { REPO_ROOT } from '../../config/paths';
import { SA } from '../../lib/temporal/searchAttributes';
import { tlsOptions } from '../../lib/temporal/connection';
import { fail, ok, warn, type Check } from './check';

/**
 * The Temporal server the CLI would use: the configured one (TEMPORAL_ADDRESS, temporal.address) must answer, have the
 * namespace and the project's search attributes; the embedded dev server may be stopped (`run` and `serve` start it),
 * but its binary must be installed, and a server on its port must be a Temporal server with the same.
 */
export function temporalCheck(config: Config): Check {
  const t = config.temporal;
  return {
    name: 'Temporal',
    run: async () => {
      if (!t.address) {
        const bin = process.env.SHEETBENCH_TEMPORAL_BIN ?? path.join(REPO_ROOT, '.tools/temporal/bin/temporal');
        if (!existsSync(bin))
          return fail(
            `the embedded Temporal server's binary is missing: ${bin}`,
            'bash scripts/setup.sh (or set TEMPORAL_ADDRESS to your own server)',
          );
        if (!(await listening('127.0.0.1', t.port)))
          return ok(
            `embedded dev server not running (\`run\` and \`serve\` start it on 127.0.0.1:${t.port}, UI :${t.uiPort}); binary ${bin}`,
          );
      }
      const address = t.address ?? `127.0.0.1:${t.port}`;
      const where = t.address
        ? `${address} (TEMPORAL_ADDRESS / temporal.address)`
        : `${address} (the embedded dev server's port)`;
      let connection: Connection;
      try {
        connection = await Connection.connect({ address, tls: tlsOptions(t), connectTimeout: '5s' });
      } catch (err) {
        return fail(
          `cannot reach the Temporal server at ${where}: ${(err as Error).message.split('\n')[0]}`,
          t.address
            ? "start that server (scripts/cluster.sh up for the project's own), fix the address, or unset TEMPORAL_ADDRESS to use the embedded dev server"
            : `free port ${t.port} (another program holds it) or set temporal.port in sheetbench.config.json`,
        );
      }
      try {
        try {
          await connection.workflowService.describeNamespace({ namespace: t.namespace });
        } catch (err) {
          return fail(
            `the server at ${where} has no namespace "${t.namespace}": ${(err as Error).message.split('\n')[0]}`,
            `temporal operator namespace create --namespace ${t.namespace} --address ${address} (or set TEMPORAL_NAMESPACE)`,
          );
        }
        const listed = await connection.operatorService.listSearchAttributes({ namespace: t.namespace });
        const known = new Set(Object.keys(listed.customAttributes ?? {}));
        const missing = Object.values(SA).filter((k) => !known.has(k.name));
        if (missing.length) {
          const create = missing.map(
            (k) =>
              `temporal operator search-attribute create --address ${address} --namespace ${t.namespace} --name ${k.name} --type ${k.type === 'DOUBLE' ? 'Double' : 'Keyword'}`,
          );
          return warn(
            `namespace "${t.namespace}" lacks the search attributes ${missing.map((k) => k.name).join(', ')} (the CLI adds them when it starts a run)`,
            create.join(' && '),
          );
        }
        return ok(
          `${where}: namespace "${t.namespace}" with the ${known.size >= Object.keys(SA).length ? Object.keys(SA).length : known.size} search attributes`,
        );
      } finally {
        await connection.close();
      }
    },
  };
}

function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}
