import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/schema';
import { ConversationService } from '../client/conversations';
import type { WorkerSet } from '../workers/createWorkers';
import { createApp } from './app';

export interface StartServerOptions {
  config: Config;
  client: Client;
  temporal: { address: string; namespace: string; uiUrl?: string };
  port?: number;
  host?: string;
  /** In-process workers (the default for `sheetbench serve`); stopped with the server. */
  workers?: WorkerSet;
}

export interface RunningServer {
  url: string;
  port: number;
  service: ConversationService;
  close(): Promise<void>;
}

/** Starts the HTTP API (and runs the given workers) until `close`. */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const service = new ConversationService({ client: opts.client, config: opts.config, temporalUiUrl: opts.temporal.uiUrl });
  const app = createApp({ service, temporal: opts.temporal, maxUploadBytes: opts.config.conversation.maxUploadBytes });
  const workersDone = opts.workers?.run();
  const { server, address } = await listen(app.fetch, opts.port ?? 8787, opts.host ?? '127.0.0.1');
  return {
    url: `http://${address.address}:${address.port}`,
    port: address.port,
    service,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      if (opts.workers) {
        await opts.workers.shutdown();
        await workersDone;
      }
    },
  };
}

function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number, hostname: string): Promise<{ server: ServerType; address: AddressInfo }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, (info) => resolve({ server, address: info }));
    server.once('error', reject);
  });
}
