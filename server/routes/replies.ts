/** How the conversation routes (an owner's and a share's) read bodies and answer: JSON errors, files, exports, events. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { AuditEntry, AuditLog } from '../auth/auditLog';
import { clientAddress } from '../auth/signInGuard';
import type { AuthEnv } from '../auth/user';
import { streamSSE } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ConversationError, type ConversationErrorKind } from '../../analysis/conversation/errors';
import type { ConversationEvent } from '../../analysis/conversation/events';
import { mimeTypeOf } from '../../analysis/conversation/mime';
import { EXPORT_FORMATS, type ExportFile, type ExportFormat } from '../../analysis/export';

/** A route's audit line: the signed-in user, the client's address, what was done to which target. */
export type RouteAudit = (
  c: Context<AuthEnv>,
  action: AuditEntry['action'],
  target: string,
  detail?: AuditEntry['detail'],
) => Promise<void>;

export function routeAudit(log: AuditLog): RouteAudit {
  return (c, action, target, detail) =>
    log.write({ action, user: c.get('user').name, client: clientAddress(c), target, ...(detail ? { detail } : {}) });
}

const STATUS: Record<ConversationErrorKind, ContentfulStatusCode> = {
  bad_input: 400,
  forbidden: 403,
  not_found: 404,
  busy: 409,
  empty: 409,
  gone: 410,
  too_large: 413,
  refused_type: 415,
  unavailable: 503,
};

/** Served files (and run reports): no script, an opaque origin, only their own images and inline styles. */
export const FILE_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** The event log as Server-Sent Events from `Last-Event-ID` (or `?after=`), then following it; a ping now and then. */
export function streamEvents(
  c: Context,
  load: (after: number) => Promise<ConversationEvent[]>,
  opts: { pollMs?: number; pingMs?: number },
): Response {
  const after = Number(c.req.header('Last-Event-ID') ?? c.req.query('after') ?? 0) || 0;
  return streamSSE(c, async (stream) => {
    let seq = after;
    let lastWrite = Date.now();
    while (!stream.aborted && !stream.closed) {
      const events = await load(seq).catch(() => []); // a failed read is tried again at the next poll
      for (const e of events) {
        const { key: _key, ...event } = e;
        await stream.writeSSE({ id: String(e.seq), event: e.type, data: JSON.stringify(event) });
        seq = e.seq;
        lastWrite = Date.now();
      }
      if (Date.now() - lastWrite >= (opts.pingMs ?? 15_000)) {
        await stream.write(': ping\n\n');
        lastWrite = Date.now();
      }
      await stream.sleep(opts.pollMs ?? 250);
    }
  });
}

/** A workspace file as a download (`?inline=1`: shown), which runs no script even when opened. */
export async function sendWorkspaceFile(c: Context, file: string): Promise<Response> {
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
}

const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS),
  turn: z
    .string()
    .regex(/^t\d{1,6}$/, 'turn must be a turn id such as t1')
    .optional(),
});

/** `?format=ipynb|py|inputs[&turn=t2]`. */
export function exportQuery(c: Context): { format: ExportFormat; turnId?: string } {
  const parsed = exportQuerySchema.safeParse({ format: c.req.query('format') ?? 'ipynb', turn: c.req.query('turn') });
  if (!parsed.success)
    throw new ConversationError(
      'bad_input',
      `invalid export: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')} (format is one of ${EXPORT_FORMATS.join(', ')})`,
    );
  return { format: parsed.data.format, ...(parsed.data.turn ? { turnId: parsed.data.turn } : {}) };
}

/** An export as a download: its own name and type, never run or sniffed by the browser. */
export function sendExport(c: Context, file: ExportFile): Response {
  c.header('Content-Type', file.contentType);
  c.header('Content-Disposition', `attachment; filename="${file.filename.replace(/["\\]/g, '_')}"`);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', FILE_CSP);
  return c.body(new Uint8Array(file.body));
}

export async function parse<T>(c: Context, schema: z.ZodType<T>, optional = false): Promise<T> {
  const text = await c.req.text();
  if (!text.trim() && optional) return schema.parse({});
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConversationError('bad_input', 'the body must be JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ConversationError(
      'bad_input',
      `invalid body: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

export function errorReply(c: Context, err: unknown): Response {
  if (err instanceof ConversationError) return c.json({ error: err.message }, STATUS[err.kind]);
  if (err instanceof URIError) return c.json({ error: `bad URL encoding in ${c.req.path}` }, 400);
  return c.json({ error: `internal error: ${err instanceof Error ? err.message : String(err)}` }, 500);
}
