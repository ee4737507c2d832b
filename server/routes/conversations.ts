import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { ConversationError } from '../../analysis/conversation/errors';
import type { ConversationService } from '../../client/conversations';
import { PATTERN_DESCRIPTIONS } from '../../analysis/conversation/types';
import { PATTERNS, type Pattern } from '../../contracts/conversation';
import type { DebugStep } from '../../analysis/conversation/debug';
import type { FileInfo } from '../../analysis/conversation/types';
import type { ConversationInfo } from '../../analysis/conversation/view';
import type { AuditLog } from '../auth/auditLog';
import { mayAccess, type AuthEnv } from '../auth/user';
import { errorReply, exportQuery, parse, routeAudit, sendExport, sendWorkspaceFile, streamEvents } from './replies';
import { registerShareRoutes } from './shares';

export { FILE_CSP } from './replies';

const createBody = z.object({ title: z.string().max(200).optional(), pattern: z.enum(PATTERNS).optional() }).strict();
const renameBody = z.object({ title: z.string().min(1).max(200) }).strict();
/** JSON bodies are small: a message is at most conversation.maxMessageChars (checked by the workflow), far below this. */
const jsonLimit = bodyLimit({
  maxSize: 1024 * 1024,
  onError: (c) => c.json({ error: 'the body is over the limit of 1 MiB' }, 413),
});
const messageBody = z
  .object({ text: z.string(), pattern: z.enum(PATTERNS).optional(), files: z.array(z.string()).optional() })
  .strict();

/** Replies of the conversation API (the web app is type-checked against them: web/tsconfig.json). */
export interface PatternsReply {
  patterns: { name: Pattern; description: string }[];
}
export interface ConversationListReply {
  conversations: ConversationInfo[];
}
export interface UploadReply {
  files: (FileInfo & { note?: string })[];
}
export interface DebugReply {
  steps: DebugStep[];
}

export interface ConversationRouteDeps {
  service: ConversationService;
  maxUploadBytes: number;
  audit: AuditLog;
  /** Share links' secret and lives (server/sharing). */
  sharing: { secret: string; hours: { default: number; max: number } };
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
  const audit = routeAudit(deps.audit);

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

  registerShareRoutes(app, { service, secret: deps.sharing.secret, hours: deps.sharing.hours, audit });

  app.get('/patterns', (c) =>
    c.json({
      patterns: PATTERNS.map((name) => ({ name, description: PATTERN_DESCRIPTIONS[name] })),
    } satisfies PatternsReply),
  );

  app.post('/conversations', jsonLimit, async (c) => {
    const created = await service.create(await parse(c, createBody, true), c.get('user').name);
    await audit(c, 'create', created.id, { title: created.title });
    return c.json(created, 201);
  });
  app.get('/conversations', async (c) =>
    c.json({
      conversations: (await service.list()).filter((i) => mayAccess(c.get('user'), i.owner)),
    } satisfies ConversationListReply),
  );
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
    bodyLimit({
      maxSize: deps.maxUploadBytes + 1024 * 1024,
      onError: (c) => c.json({ error: `upload over the limit of ${deps.maxUploadBytes} bytes` }, 413),
    }),
    async (c) => {
      const form = await c.req.parseBody({ all: true }).catch(() => {
        throw new ConversationError(
          'bad_input',
          'the upload must be multipart/form-data with one or more "file" fields',
        );
      });
      const field = form.file;
      const files = (Array.isArray(field) ? field : field ? [field] : []).filter(
        (f): f is File => typeof f === 'object' && f !== null && 'arrayBuffer' in f,
      );
      const stored = await service.upload(
        c.req.param('id'),
        await Promise.all(files.map(async (f) => ({ name: f.name, data: Buffer.from(await f.arrayBuffer()) }))),
      );
      await audit(c, 'upload', c.req.param('id'), { files: stored.map((f) => `${f.filename} (${f.size} bytes)`) });
      return c.json({ files: stored } satisfies UploadReply, 201);
    },
  );

  app.post('/conversations/:id/messages', jsonLimit, async (c) => {
    const message = await parse(c, messageBody);
    const sent = await service.send(c.req.param('id'), message);
    // The message's length and its attachments' names; its text is the user's content and stays out of the log.
    await audit(c, 'send', c.req.param('id'), {
      turnId: sent.turnId,
      chars: message.text.length,
      files: message.files,
    });
    return c.json(sent, 202);
  });
  app.post('/conversations/:id/cancel', async (c) => {
    const cancelled = await service.cancel(c.req.param('id'));
    await audit(c, 'cancel', c.req.param('id'), { turnId: cancelled.turnId });
    return c.json(cancelled, 202);
  });
  app.get('/conversations/:id/debug', async (c) =>
    c.json({ steps: await service.debug(c.req.param('id')) } satisfies DebugReply),
  );
  app.get('/conversations/:id/export', async (c) => {
    const id = c.req.param('id');
    const file = await service.export(id, exportQuery(c));
    await audit(c, 'export', id, { format: file.filename.split('.').pop(), file: file.filename });
    return sendExport(c, file);
  });

  app.get('/conversations/:id/events', async (c) => {
    const id = c.req.param('id');
    await service.events(id, Number.MAX_SAFE_INTEGER); // 404 before the stream starts
    return streamEvents(c, (after) => service.events(id, after), deps);
  });

  app.get('/conversations/:id/files/*', async (c) => {
    const id = c.req.param('id');
    const prefix = `/conversations/${id}/files/`;
    return sendWorkspaceFile(
      c,
      await service.resolveFile(id, decodeURIComponent(c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length))),
    );
  });

  return app;
}
