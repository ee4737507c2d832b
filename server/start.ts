import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/schema';
import { ConversationService } from '../client/conversations';
import type { WorkerSet } from '../workers/createWorkers';
import { createApp } from './app';
import { prepareSignIn, type PreparedSignIn } from './auth/prepare';

export interface StartServerOptions {
  config: Config;
  client: Client;
  temporal: { address: string; namespace: string; uiUrl?: string };
  port?: number;
  host?: string;
  /** In-process workers (the default for `sheetbench serve`); stopped with the server. */
  workers?: WorkerSet;
  /** --token / SHEETBENCH_TOKEN (else the state folder's token file), and --no-auth (loopback only). */
  token?: string;
  noAuth?: boolean;
  /** Sign-in already prepared (the CLI checks it before it starts Temporal and workers); else prepared here. */
  signIn?: PreparedSignIn;
  /** Where benchmark runs are listed from (default runs/). */
  runsDir?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  service: ConversationService;
  /** The sign-in token (undefined with --no-auth) and the URL that signs a browser in with it. */
  token?: string;
  loginUrl: string;
  /** What the operator should know at start: where the token is, or that sign-in is off. */
  notes: string[];
  close(): Promise<void>;
}

/** Starts the HTTP API (and runs the given workers) until `close`. */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  // Checked before anything listens or runs: a server that would be open does not start.
  const signIn = opts.signIn ?? await prepareSignIn({ server: opts.config.server, host, token: opts.token, noAuth: opts.noAuth });
  const service = new ConversationService({ client: opts.client, config: opts.config, temporalUiUrl: opts.temporal.uiUrl });
  const shareLinkHours = { default: opts.config.server.shareLinkHours, max: opts.config.server.maxShareLinkHours };
  const app = createApp({ service, temporal: opts.temporal, maxUploadBytes: opts.config.conversation.maxUploadBytes, shareLinkHours, signIn, runs: { runsDir: opts.runsDir } });
  const workersDone = opts.workers?.run();
  const { server, address } = await listen(app.fetch, opts.port ?? 8787, host);
  const url = `http://${urlHost(address.address)}:${address.port}`;
  return {
    url,
    port: address.port,
    service,
    token: signIn.token,
    loginUrl: signIn.token ? `${url}/?token=${encodeURIComponent(signIn.token)}` : `${url}/`,
    notes: signIn.notes,
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

/** The address to print: a wildcard listen address is reached as 127.0.0.1 from this machine; IPv6 goes in brackets. */
function urlHost(address: string): string {
  if (address === '0.0.0.0' || address === '::') return '127.0.0.1';
  return address.includes(':') ? `[${address}]` : address;
}
