import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { kernelScriptPath, sandboxPythonPath } from '../../lib/sandbox/paths';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A fake Docker Engine API on a unix socket (no engine runs here). Containers are emulated by running the real
 * kernel.py on the host with the container's Cmd arguments, so the attach/demux protocol path is exercised for real.
 */
export class FakeDockerEngine {
  readonly requests: RecordedRequest[] = [];
  readonly created: Array<Record<string, any>> = [];
  private readonly server: Server;
  private readonly processes = new Map<string, ChildProcess>();
  private readonly sockets = new Map<string, Duplex>();
  private nextId = 0;

  constructor(readonly socketPath: string) {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex) => this.attach(req, socket));
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.socketPath, resolve));
  }

  close(): Promise<void> {
    for (const p of this.processes.values()) p.kill('SIGKILL');
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/v[\d.]+/, '');
    this.requests.push({ method: req.method ?? '', path, body });
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(json === undefined ? '' : JSON.stringify(json));
    };
    const id = path.split('/')[2];
    if (path === '/_ping') return void res.end('OK');
    if (req.method === 'POST' && path === '/containers/create') {
      const cid = `c${++this.nextId}`;
      this.created.push(body as Record<string, any>);
      return reply(201, { Id: cid, Warnings: [] });
    }
    if (req.method === 'POST' && path.endsWith('/start')) return (this.start(id), reply(204));
    if (req.method === 'POST' && path.endsWith('/wait')) {
      const proc = this.processes.get(id);
      const code = await new Promise<number>((resolve) =>
        proc && proc.exitCode === null ? proc.once('exit', (c) => resolve(c ?? 137)) : resolve(proc?.exitCode ?? 0),
      );
      return reply(200, { StatusCode: code });
    }
    if (req.method === 'POST' && path.endsWith('/kill')) return (this.processes.get(id)?.kill('SIGKILL'), reply(204));
    if (req.method === 'GET' && path.endsWith('/json')) return reply(200, { Id: id, State: { OOMKilled: false } });
    if (req.method === 'DELETE') return (this.processes.get(id)?.kill('SIGKILL'), reply(204));
    reply(404, { message: `fake engine: no route ${req.method} ${path}` });
  }

  private attach(req: IncomingMessage, socket: Duplex): void {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/v[\d.]+/, '');
    this.requests.push({ method: req.method ?? '', path, body: null });
    socket.write(
      'HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n',
    );
    this.sockets.set(path.split('/')[2], socket);
  }

  /** Runs the container's Cmd (python3 KERNEL 1) as the host kernel, framed like Docker's multiplexed stream. */
  private start(id: string): void {
    const cmd = this.created[Number(id.slice(1)) - 1].Cmd as string[];
    const child = spawn(sandboxPythonPath(), [kernelScriptPath, ...cmd.slice(2)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.processes.set(id, child);
    const socket = this.sockets.get(id)!;
    socket.pipe(child.stdin);
    child.stdout.on('data', (d: Buffer) => socket.write(frame(1, d)));
    child.stderr.on('data', (d: Buffer) => socket.write(frame(2, d)));
    child.on('exit', () => socket.end());
    socket.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
  }
}

function frame(stream: 1 | 2, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(data.length, 4);
  return Buffer.concat([header, data]);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}
