import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer, type Server } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/schema';
import { ConversationService } from '../client/conversations';
import type { WorkerSet } from '../workers/createWorkers';
import { createApp } from './app';
import { prepareSignIn, serverFiles, type PreparedSignIn } from './auth/prepare';

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
  /** The app's routes, as registered (tests enumerate them, so that no route escapes the sign-in checks). */
  routes: ReadonlyArray<{ method: string; path: string }>;
  /** The server's state folder: token, cookie secret, audit log. */
  stateDir: string;
  close(): Promise<void>;
}

/** Starts the HTTP API (and runs the given workers) until `close`. */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  // Checked before anything listens or runs: a server that would be open does not start.
  const signIn =
    opts.signIn ?? (await prepareSignIn({ server: opts.config.server, host, token: opts.token, noAuth: opts.noAuth }));
  const service = new ConversationService({
    client: opts.client,
    config: opts.config,
    temporalUiUrl: opts.temporal.uiUrl,
  });
  const shareLinkHours = { default: opts.config.server.shareLinkHours, max: opts.config.server.maxShareLinkHours };
  const app = createApp({
    service,
    client: opts.client,
    temporalUiUrl: opts.temporal.uiUrl,
    maxUploadBytes: opts.config.conversation.maxUploadBytes,
    shareLinkHours,
    signIn,
    runs: { runsDir: opts.runsDir, artifactsRoot: opts.config.artifacts.root },
  });
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
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    stateDir: serverFiles(opts.config.server).dir,
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

type FetchHandler = Parameters<typeof getRequestListener>[0];

function listen(
  fetch: FetchHandler,
  port: number,
  hostname: string,
): Promise<{ server: Server; address: AddressInfo }> {
  return new Promise((resolve, reject) => {
    const listener = getRequestListener(fetch, { hostname, errorHandler: answerUnroutable });
    // The listener answers every request itself (errors included, through errorHandler): nothing to await here.
    const server = createServer((req, res) => void listener(req, res));
    server.once('error', reject);
    server.on('clientError', answerUnparsable);
    server.listen(port, hostname, () => resolve({ server, address: server.address() as AddressInfo }));
  });
}

const jsonError = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' },
  });

/** A request the adapter cannot turn into a URL (a request target such as `..\\x`) never reaches the app: answered here. */
function answerUnroutable(err: unknown): Response {
  if (err instanceof RequestError) return jsonError(400, `the request target is not a valid URL path (${err.message})`);
  return jsonError(500, 'internal error');
}

/**
 * A request Node's HTTP parser refuses (headers over its 16 KiB limit, a malformed request line) never reaches the
 * adapter: answer it with the same JSON error shape, rather than Node's bare status line.
 */
function answerUnparsable(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const [status, reason, error] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'the request headers are over the limit of 16 KiB']
      : [400, 'Bad Request', `the request is not valid HTTP/1.1 (${err.code ?? err.message})`];
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The address to print: a wildcard listen address is reached as 127.0.0.1 from this machine; IPv6 goes in brackets. */
function urlHost(address: string): string {
  if (address === '0.0.0.0' || address === '::') return '127.0.0.1';
  return address.includes(':') ? `[${address}]` : address;
}
