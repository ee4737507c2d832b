import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../../config/paths';
import { devServerConfigSchema, type DevServerConfig } from '../../config/schema';
import { prepareNamespace } from './namespace';
import { searchAttributeFlags } from './searchAttributes';

export function temporalBinary(): string {
  const bin = process.env.SHEETBENCH_TEMPORAL_BIN ?? path.join(REPO_ROOT, '.tools/temporal/bin/temporal');
  if (!existsSync(bin))
    throw new Error(
      `Temporal CLI not found at ${bin}: run \`npm run setup\` (or set TEMPORAL_ADDRESS to use your own cluster)`,
    );
  return bin;
}

export interface DevServerOptions {
  stateDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  retentionDays: number;
  /** Eager activities and SQLite pragmas (default: the config's defaults). */
  tuning?: DevServerConfig;
  /** Serve the server's Prometheus metrics on this port (benches read them); default: none. */
  metricsPort?: number;
  /** Keep the server running after this process exits (the CLI's default), or tie it to this process (tests). */
  detached?: boolean;
  startTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  pid: number;
  /** True when an already running server from an earlier invocation was reused. */
  reused: boolean;
  stop(): Promise<void>;
}

/** Starts `temporal server start-dev` with SQLite state (runs survive restarts), or reuses the one already started there. */
export async function ensureDevServer(opts: DevServerOptions): Promise<DevServer> {
  const address = `127.0.0.1:${opts.port}`;
  const uiUrl = `http://localhost:${opts.uiPort}/namespaces/${opts.namespace}/workflows`;
  mkdirSync(opts.stateDir, { recursive: true });
  const pidFile = path.join(opts.stateDir, 'temporal.pid');
  if (await isListening(opts.port)) {
    await prepareNamespace(address, opts.namespace, opts.retentionDays);
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : -1;
    return { address, uiUrl, pid, reused: true, stop: () => stopPid(pid) };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const pid = await startDevServer(opts, pidFile);
      await prepareNamespace(address, opts.namespace, opts.retentionDays);
      return { address, uiUrl, pid, reused: false, stop: () => stopPid(pid) };
    } catch (err) {
      // The dev server picks its internal ports itself (listen, close, bind later): another process can take one in
      // between, and the next start picks others. A taken port of our own choosing would be taken again: the caller's.
      const internal =
        err instanceof DevServerStartError && err.takenPort !== undefined && !ownPorts(opts).includes(err.takenPort);
      if (!internal || attempt >= START_ATTEMPTS) throw err;
    }
  }
}

const START_ATTEMPTS = 3;

/** The dev server ended before it listened (the tail of its log says why). */
export class DevServerStartError extends Error {
  constructor(
    readonly logTail: string,
    readonly logPath: string,
  ) {
    super(`temporal server start-dev exited during start-up: ${logTail.trim() || '(no output)'} (log: ${logPath})`);
    this.name = 'DevServerStartError';
  }

  /** The port another process held, when that is why the server ended. */
  get takenPort(): number | undefined {
    const port = /:(\d+): bind: address already in use/i.exec(this.logTail)?.[1];
    return port === undefined ? undefined : Number(port);
  }
}

function ownPorts(opts: DevServerOptions): number[] {
  return [opts.port, opts.uiPort, ...(opts.metricsPort ? [opts.metricsPort] : [])];
}

async function startDevServer(opts: DevServerOptions, pidFile: string): Promise<number> {
  const logPath = path.join(opts.stateDir, 'temporal.log');
  const logStart = existsSync(logPath) ? statSync(logPath).size : 0;
  const log = openSync(logPath, 'a');
  const child = spawn(temporalBinary(), devServerArgs(opts), {
    detached: opts.detached ?? true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (opts.detached ?? true) child.unref();
  writeFileSync(pidFile, String(child.pid));
  const died = () => child.exitCode !== null || child.signalCode !== null;
  if (!(await waitForPort(opts.port, opts.startTimeoutMs ?? 60_000, died))) {
    throw new DevServerStartError(readFileSync(logPath).subarray(logStart).toString('utf8').slice(-2000), logPath);
  }
  return child.pid!;
}

export function devServerArgs(opts: DevServerOptions): string[] {
  return [
    'server',
    'start-dev',
    '--db-filename',
    path.join(opts.stateDir, 'temporal.db'),
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    '--ui-disable-news-fetch',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecution=true',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecutionAsyncAccepted=true',
    ...tuningFlags(opts.tuning ?? devServerConfigSchema.parse({})),
    ...(opts.metricsPort ? ['--metrics-port', String(opts.metricsPort)] : []),
    ...searchAttributeFlags(),
  ];
}

function tuningFlags(tuning: DevServerConfig): string[] {
  return [
    '--dynamic-config-value',
    `system.enableActivityEagerExecution=${tuning.eagerActivities}`,
    ...Object.entries(tuning.sqlitePragmas).flatMap(([pragma, value]) => ['--sqlite-pragma', `${pragma}=${value}`]),
    ...Object.entries(tuning.dynamicConfig).flatMap(([key, value]) => [
      '--dynamic-config-value',
      `${key}=${JSON.stringify(value)}`,
    ]),
  ];
}

export function isListening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Resolves true once the port listens, false if the process died first; throws at the deadline. */
async function waitForPort(port: number, timeoutMs: number, died: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isListening(port)) return true;
    if (died()) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Temporal dev server did not listen on port ${port} within ${timeoutMs} ms`);
}

async function stopPid(pid: number): Promise<void> {
  if (pid <= 0) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
