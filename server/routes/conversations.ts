import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ConversationError, type ConversationErrorKind } from '../../analysis/conversation/errors';
import type { ConversationService } from '../../client/conversations';
import { PATTERN_DESCRIPTIONS } from '../../analysis/conversation/types';
import { PATTERNS } from '../../contracts/conversation';
import { mimeTypeOf } from '../../analysis/conversation/mime';
import type { AuditEntry, AuditLog } from '../auth/auditLog';
import { clientAddress } from '../auth/signInGuard';
import { mayAccess, type AuthEnv } from '../auth/user';

const STATUS: Record<ConversationErrorKind, ContentfulStatusCode> = {
  bad_input: 400,
  not_found: 404,
  busy: 409,
  too_large: 413,
  refused_type: 415,
  unavailable: 503,
};

/** Served files (and run reports): no script, an opaque origin, only their own images and inline styles. */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'";

const createBody = z.object({ title: z.string().max(200).optional(), pattern: z.enum(PATTERNS).optional() }).strict();
const renameBody = z.object({ title: z.string().min(1).max(200) }).strict();
/** JSON bodies are small: a message is at most conversation.maxMessageChars (checked by the workflow), far below this. */
const jsonLimit = bodyLimit({ maxSize: 1024 * 1024, onError: (c) => c.json({ error: 'the body is over the limit of 1 MiB' }, 413) });
const messageBody = z.object({ text: z.string(), pattern: z.enum(PATTERNS).optional(), files: z.array(z.string()).optional() }).strict();

export interface ConversationRouteDeps {
  service: ConversationService;
  maxUploadBytes: number;
  audit: AuditLog;
  /** How often the SSE stream looks for new events, and how often it pings. */
  pollMs?: number;
  pingMs?: number;
}

/**
 * The conversation API (see server/README.md): JSON in and out, errors as {error} with a status naming the cause.
 * Behind sign-in (server/auth): a user reaches only their own conversations, an admin all; another user's id is
 * answered exactly like an unknown one (404), so ids do not leak.
 */
export function conversationRoutes(deps: ConversationRouteDeps): Hono<AuthEnv> {
  const { service } = deps;
  const app = new Hono<AuthEnv>();
  app.onError((err, c) => errorReply(c, err));
  const audit = (c: Context<AuthEnv>, action: AuditEntry['action'], target: string, detail?: AuditEntry['detail']) =>
    deps.audit.write({ action, user: c.get('user').name, client: clientAddress(c), target, ...(detail ? { detail } : {}) });

  const owned: MiddlewareHandler<AuthEnv> = async (c, next) => {
    const id = c.req.param('id') ?? '';
    const { exists, owner } = await service.ownerOf(id);
    // Unknown, deleted and other users' conversations get the same answer, so ids do not leak.
    if (!exists) throw new ConversationError('not_found', `no conversation ${id}`);
    if (!mayAccess(c.get('user'), owner)) {
      await audit(c, 'denied', id, { reason: 'not the owner', route: `${c.req.method} ${c.req.path}` });
      throw new ConversationError('not_found', `no conversation ${id}`);
    }
    await next();
  };
  app.use('/conversations/:id', owned);
  app.use('/conversations/:id/*', owned);

  app.get('/patterns', (c) => c.json({ patterns: PATTERNS.map((name) => ({ name, description: PATTERN_DESCRIPTIONS[name] })) }));

  app.post('/conversations', jsonLimit, async (c) => {
    const created = await service.create(await parse(c, createBody, true), c.get('user').name);
    await audit(c, 'create', created.id, { title: created.title });
    return c.json(created, 201);
  });
  app.get('/conversations', async (c) => c.json({ conversations: (await service.list()).filter((i) => mayAccess(c.get('user'), i.owner)) }));
  app.get('/conversations/:id', async (c) => c.json(await service.get(c.req.param('id'))));
  app.patch('/conversations/:id', jsonLimit, async (c) => {
    const renamed = await service.rename(c.req.param('id'), (await parse(c, renameBody)).title);
    await audit(c, 'rename', renamed.id, { title: renamed.title });
    return c.json(renamed);
  });
  app.delete('/conversations/:id', async (c) => {
    await service.delete(c.req.param('id'));
    await audit(c, 'delete', c.req.param('id'));
    return c.body(null, 204);
  });

  app.post(
    '/conversations/:id/files',
    bodyLimit({ maxSize: deps.maxUploadBytes + 1024 * 1024, onError: (c) => c.json({ error: `upload over the limit of ${deps.maxUploadBytes} bytes` }, 413) }),
    async (c) => {
      const form = await c.req.parseBody({ all: true }).catch(() => {
        throw new ConversationError('bad_input', 'the upload must be multipart/form-data with one or more "file" fields');
      });
      const field = form.file;
      const files = (Array.isArray(field) ? field : field ? [field] : []).filter((f): f is File => typeof f === 'object' && f !== null && 'arrayBuffer' in f);
      const stored = await service.upload(c.req.param('id'), await Promise.all(files.map(async (f) => ({ name: f.name, data: Buffer.from(await f.arrayBuffer()) }))));
      await audit(c, 'upload', c.req.param('id'), { files: stored.map((f) => `${f.filename} (${f.size} bytes)`) });
      return c.json({ files: stored }, 201);
    },
  );

  app.post('/conversations/:id/messages', jsonLimit, async (c) => {
    const message = await parse(c, messageBody);
    const sent = await service.send(c.req.param('id'), message);
    // The message's length and its attachments' names; its text is the user's content and stays out of the log.
    await audit(c, 'send', c.req.param('id'), { turnId: sent.turnId, chars: message.text.length, files: message.files });
    return c.json(sent, 202);
  });
  app.post('/conversations/:id/cancel', async (c) => {
    const cancelled = await service.cancel(c.req.param('id'));
    await audit(c, 'cancel', c.req.param('id'), { turnId: cancelled.turnId });
    return c.json(cancelled, 202);
  });
  app.get('/conversations/:id/debug', async (c) => c.json({ steps: await service.debug(c.req.param('id')) }));

  app.get('/conversations/:id/events', async (c) => {
    const id = c.req.param('id');
    const after = Number(c.req.header('Last-Event-ID') ?? c.req.query('after') ?? 0) || 0;
    await service.events(id, Number.MAX_SAFE_INTEGER); // 404 before the stream starts
    return streamSSE(c, async (stream) => {
      let seq = after;
      let lastWrite = Date.now();
      while (!stream.aborted && !stream.closed) {
        const events = await service.events(id, seq).catch(() => []);
        for (const e of events) {
          const { key: _key, ...event } = e;
          await stream.writeSSE({ id: String(e.seq), event: e.type, data: JSON.stringify(event) });
          seq = e.seq;
          lastWrite = Date.now();
        }
        if (Date.now() - lastWrite >= (deps.pingMs ?? 15_000)) {
          await stream.write(': ping\n\n');
          lastWrite = Date.now();
        }
        await stream.sleep(deps.pollMs ?? 250);
      }
    });
  });

  app.get('/conversations/:id/files/*', async (c) => {
    const id = c.req.param('id');
    const prefix = `/conversations/${id}/files/`;
    const rel = decodeURIComponent(c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length));
    const file = await service.resolveFile(id, rel);
    const inline = c.req.query('inline') === '1';
    const name = path.basename(file);
    c.header('Content-Type', mimeTypeOf(name));
    c.header('Content-Length', String((await stat(file)).size));
    c.header('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${name.replace(/["\\]/g, '_')}"`);
    c.header('X-Content-Type-Options', 'nosniff');
    // A workspace file is the user's or the agent's data, never the app's code: even opened inline (an uploaded HTML
    // page, an SVG) it runs no script, in a sandbox with an opaque origin.
    c.header('Content-Security-Policy', FILE_CSP);
    return c.body(Readable.toWeb(createReadStream(file)) as ReadableStream);
  });

  return app;
}

async function parse<T>(c: Context, schema: z.ZodType<T>, optional = false): Promise<T> {
  const text = await c.req.text();
  if (!text.trim() && optional) return schema.parse({});
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConversationError('bad_input', 'the body must be JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ConversationError('bad_input', `invalid body: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

function errorReply(c: Context, err: unknown): Response {
  if (err instanceof ConversationError) return c.json({ error: err.message }, STATUS[err.kind]);
  if (err instanceof URIError) return c.json({ error: `bad URL encoding in ${c.req.path}` }, 400);
  return c.json({ error: `internal error: ${err instanceof Error ? err.message : String(err)}` }, 500);
}
