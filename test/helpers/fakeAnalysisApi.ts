/**
 * TEST DOUBLE of the analysis conversation API (/work/briefs/api-contract.md) for UI-only browser tests of the web app.
 * It runs no agent, no Temporal and no sandbox: each message plays a scripted list of events over SSE (with an optional
 * pause the test releases), so the page's streaming, reload, cancel, upload and error paths can be driven deterministically.
 * The real API (server/routes/conversations.ts, issue 10) replaces it in the end-to-end tests.
 */
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ConversationEvent as LogEvent } from '../../analysis/conversation/events';
import type { DebugStep } from '../../analysis/conversation/debug';
import type { FileInfo } from '../../analysis/conversation/types';
import type { ConversationInfo } from '../../analysis/conversation/view';
import type { Pattern } from '../../contracts/conversation';

/** A scripted event: the log's event with data as loose as a script writes it (the page reads the server's fields). */
type ConversationEvent = Omit<LogEvent, 'data'> & { data: Record<string, unknown> };
import { webRoutes } from '../../server/routes/web';
import { runsRoutes } from '../../server/routes/runs';
import { AuditLog } from '../../server/auth/auditLog';
import { claimPort, type PortClaim } from './portClaim';

/** One scripted event, a debug step (kept for GET /debug, not streamed), or a pause until the test calls `release(conversationId)`. */
export type ScriptEntry =
  | { type: ConversationEvent['type']; data: Record<string, unknown>; delayMs?: number }
  | { pause: true }
  | { debug: DebugStep };
/** Builds a turn's script from the message and the conversation's workspace (write data files there). */
export type TurnScript = (msg: {
  text: string;
  files: string[];
  workspace: string;
  turnId: string;
}) => Promise<ScriptEntry[]>;

interface FakeConversation {
  info: ConversationInfo;
  workspace: string;
  files: FileInfo[];
  events: ConversationEvent[];
  messages: Array<{ role: 'user' | 'assistant'; text: string; turnId: string }>;
  debug: DebugStep[];
  /** The running turn; `release` is set while it waits at a pause, `releasedEarly` when release came before the pause. */
  running?: { turnId: string; cancelled: boolean; release?: () => void; releasedEarly?: boolean };
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
}

export interface FakeApiOptions {
  script: TurnScript;
  runsDir?: string;
  maxUploadBytes?: number;
}

export class FakeAnalysisApi {
  readonly conversations = new Map<string, FakeConversation>();
  private readonly bus = new EventEmitter();
  private next = 1;
  private root = '';
  private server?: ServerType;
  private claim?: PortClaim;
  port = 0;

  constructor(private readonly opts: FakeApiOptions) {
    this.bus.setMaxListeners(100);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Listens on a claimed port (see portClaim), the same one at every start: stop() then start() brings it back where the
   * page expects it, with no other test's server on it in between.
   */
  async start(): Promise<void> {
    this.claim ??= await claimPort();
    const port = this.claim.port;
    this.root ||= await mkdtemp(path.join(os.tmpdir(), 'sb-fake-api-'));
    const app = new Hono();
    app.route('/', this.routes());
    // The fake has no sign-in: everyone is the one local admin, as with `serve --no-auth`.
    app.use(
      '/api/*',
      async (c, next) => (c.set('user' as never, { name: 'tester', role: 'admin', via: 'none' } as never), next()),
    );
    app.get('/api/session', (c) =>
      c.json({ user: { name: 'tester', role: 'admin', via: 'none' }, authRequired: false }),
    );
    app.route(
      '/',
      runsRoutes({
        runsDir: this.opts.runsDir ?? path.join(this.root, 'runs'),
        audit: new AuditLog(path.join(this.root, 'audit.jsonl')),
      }),
    );
    app.route('/', webRoutes());
    await new Promise<void>((resolve) => {
      this.server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        this.port = info.port;
        resolve();
      });
    });
  }

  /** Stops listening (open streams are cut); `start()` brings it back on the same port with the same state. */
  async stop(): Promise<void> {
    const server = this.server as unknown as { close(cb: () => void): void; closeAllConnections?(): void } | undefined;
    if (!server) return;
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  /**
   * Lets a paused turn go on. A release that comes while the turn still plays the events before its pause is kept: the
   * pause is then skipped (else the turn would wait forever for a release already given).
   */
  release(conversationId: string): void {
    const running = this.conversations.get(conversationId)?.running;
    if (!running) return;
    if (running.release) running.release();
    else running.releasedEarly = true;
  }

  async createConversation(title = 'New conversation'): Promise<ConversationInfo> {
    const id = `c${this.next++}`;
    const now = new Date().toISOString();
    const info: ConversationInfo = {
      id,
      title,
      createdAt: now,
      updatedAt: now,
      pattern: 'auto',
      status: 'idle',
      turns: 0,
      workflowId: `conv-${id}`,
    };
    const workspace = path.join(this.root, id);
    await mkdir(workspace, { recursive: true });
    this.conversations.set(id, {
      info,
      workspace,
      files: [],
      events: [],
      messages: [],
      debug: [],
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    });
    return info;
  }

  private routes(): Hono {
    const app = new Hono();
    const get = (id: string) => this.conversations.get(id);
    const notFound = (id: string) => ({ error: `no conversation ${id}` });

    app.get('/api/health', (c) => c.json({ ok: true, temporal: 'fake', namespace: 'fake', temporalUiUrl: '' }));
    app.get('/api/patterns', (c) =>
      c.json({
        patterns: ['auto', 'direct', 'react', 'plan_execute', 'reflection'].map((name) => ({
          name,
          description: `${name} (fake)`,
        })),
      }),
    );
    app.post('/api/conversations', async (c) =>
      c.json(await this.createConversation(((await c.req.json().catch(() => ({}))) as { title?: string }).title), 201),
    );
    app.get('/api/conversations', (c) =>
      c.json({ conversations: [...this.conversations.values()].map((x) => x.info).reverse() }),
    );
    app.get('/api/conversations/:id', (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      return c.json({
        ...conv.info,
        messages: conv.messages,
        turnsDetail: [],
        files: conv.files,
        ...conv.usage,
        lastEventSeq: conv.events.length,
      });
    });
    app.patch('/api/conversations/:id', async (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      const { title } = await c.req.json<{ title?: string }>();
      if (!title?.trim()) return c.json({ error: 'title must not be empty' }, 400);
      conv.info.title = title.trim();
      return c.json(conv.info);
    });
    app.delete('/api/conversations/:id', (c) => {
      if (!this.conversations.delete(c.req.param('id'))) return c.json(notFound(c.req.param('id')), 404);
      return c.body(null, 204);
    });
    app.post('/api/conversations/:id/files', async (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      const body = await c.req.parseBody({ all: true });
      const files = ([] as unknown[]).concat(body.file ?? []).filter((f): f is File => f instanceof File);
      if (!files.length) return c.json({ error: 'no file in field "file"' }, 400);
      const out: FileInfo[] = [];
      for (const f of files) {
        if (f.size > (this.opts.maxUploadBytes ?? 1_000_000))
          return c.json(
            {
              error: `${f.name} is ${f.size} bytes, over the ${this.opts.maxUploadBytes ?? 1_000_000}-byte upload limit`,
            },
            413,
          );
        if (!/\.(csv|xlsx|json|txt)$/i.test(f.name))
          return c.json({ error: `${f.name}: refused type (accepted: .csv, .xlsx, .json, .txt)` }, 415);
        const info: FileInfo = {
          filename: f.name,
          path: `uploads/${f.name}`,
          type: f.type || 'text/csv',
          size: f.size,
        };
        await mkdir(path.join(conv.workspace, 'uploads'), { recursive: true });
        await writeFile(path.join(conv.workspace, info.path), Buffer.from(await f.arrayBuffer()));
        conv.files.push(info);
        out.push(info);
      }
      return c.json({ files: out }, 201);
    });
    app.post('/api/conversations/:id/messages', async (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      if (conv.running) return c.json({ error: `a turn is already running in conversation ${conv.info.id}` }, 409);
      const { text, pattern, files } = await c.req.json<{ text?: string; pattern?: Pattern; files?: string[] }>();
      if (!text?.trim()) return c.json({ error: 'the message is empty' }, 400);
      const turnId = `t${conv.info.turns + 1}`;
      void this.playTurn(conv, turnId, text, pattern ?? 'auto', files ?? []);
      return c.json({ turnId }, 202);
    });
    app.post('/api/conversations/:id/cancel', (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      if (!conv.running) return c.json({ error: 'no turn is running' }, 409);
      conv.running.cancelled = true;
      conv.running.release?.();
      return c.json({ turnId: conv.running.turnId }, 202);
    });
    app.get('/api/conversations/:id/debug', (c) => {
      const conv = get(c.req.param('id'));
      return conv ? c.json({ steps: conv.debug }) : c.json(notFound(c.req.param('id')), 404);
    });
    app.get('/api/conversations/:id/files/*', async (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      const rel = decodeURIComponent(c.req.path.split('/files/').slice(1).join('/files/'));
      const file = path.resolve(conv.workspace, rel);
      if (!file.startsWith(conv.workspace + path.sep))
        return c.json({ error: `path ${rel} leaves the workspace` }, 400);
      const body = await readFile(file).catch(() => undefined);
      if (!body) return c.json({ error: `no file ${rel} in conversation ${conv.info.id}` }, 404);
      const inline = c.req.query('inline') === '1';
      const type = rel.endsWith('.png') ? 'image/png' : rel.endsWith('.csv') ? 'text/csv' : 'application/octet-stream';
      return c.body(new Uint8Array(body), 200, {
        'content-type': type,
        ...(inline ? {} : { 'content-disposition': `attachment; filename="${path.basename(rel)}"` }),
      });
    });
    app.get('/api/conversations/:id/events', (c) => {
      const conv = get(c.req.param('id'));
      if (!conv) return c.json(notFound(c.req.param('id')), 404);
      const after = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? 0) || 0;
      return streamSSE(c, async (stream) => {
        const send = (ev: ConversationEvent) =>
          stream.writeSSE({ id: String(ev.seq), event: ev.type, data: JSON.stringify(ev) });
        let sent = after;
        const queue: ConversationEvent[] = [];
        let wake: (() => void) | undefined;
        const onEvent = (ev: ConversationEvent) => {
          queue.push(ev);
          wake?.();
        };
        this.bus.on(conv.info.id, onEvent);
        stream.onAbort(() => {
          this.bus.off(conv.info.id, onEvent);
          wake?.();
        });
        try {
          for (const ev of conv.events.filter((e) => e.seq > sent)) {
            await send(ev);
            sent = ev.seq;
          }
          while (!stream.aborted) {
            const ev = queue.shift();
            if (!ev) {
              await new Promise<void>((resolve) => (wake = resolve));
              continue;
            }
            if (ev.seq > sent) {
              await send(ev);
              sent = ev.seq;
            }
          }
        } finally {
          this.bus.off(conv.info.id, onEvent);
        }
      });
    });
    return app;
  }

  private emit(
    conv: FakeConversation,
    turnId: string,
    type: ConversationEvent['type'],
    data: Record<string, unknown>,
  ): void {
    const ev: ConversationEvent = { seq: conv.events.length + 1, at: new Date().toISOString(), turnId, type, data };
    conv.events.push(ev);
    conv.info.updatedAt = ev.at;
    this.bus.emit(conv.info.id, ev);
  }

  private async playTurn(
    conv: FakeConversation,
    turnId: string,
    text: string,
    pattern: Pattern,
    files: string[],
  ): Promise<void> {
    conv.running = { turnId, cancelled: false };
    conv.info.status = 'running';
    conv.info.turns++;
    conv.messages.push({ role: 'user', text, turnId });
    this.emit(conv, turnId, 'turn_started', { pattern, text });
    const script = await this.opts.script({ text, files, workspace: conv.workspace, turnId });
    for (const entry of script) {
      if (conv.running.cancelled) break;
      if ('pause' in entry) {
        await this.pause(conv.running);
        continue;
      }
      if ('debug' in entry) {
        conv.debug.push(entry.debug);
        continue;
      }
      await new Promise((r) => setTimeout(r, entry.delayMs ?? 20));
      if (conv.running.cancelled) break;
      this.emit(conv, turnId, entry.type, entry.data);
      this.record(conv, turnId, entry);
    }
    const status = conv.running.cancelled ? 'cancelled' : 'completed';
    this.emit(conv, turnId, 'turn_ended', { status });
    conv.running = undefined;
    conv.info.status = 'idle';
  }

  /** Waits at a pause until `release` (at once if it came already). */
  private async pause(running: NonNullable<FakeConversation['running']>): Promise<void> {
    if (running.releasedEarly) {
      running.releasedEarly = false;
      return;
    }
    await new Promise<void>((resolve) => (running.release = resolve));
    running.release = undefined;
  }

  /** Keeps what the real API would return from GET /:id: the answer and the usage. */
  private record(conv: FakeConversation, turnId: string, entry: { type: string; data: Record<string, unknown> }): void {
    const d = entry.data;
    if (entry.type === 'answer') conv.messages.push({ role: 'assistant', text: String(d.text), turnId });
    if (entry.type === 'usage') Object.assign(conv.usage, d);
  }
}
