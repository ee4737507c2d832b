import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { ConversationError } from '../../analysis/conversation/errors';
import type { ConversationService } from '../../client/conversations';
import type { AuthEnv } from '../auth/user';
import { shareView, type ShareView } from '../sharing/access';
import { parse, type RouteAudit } from './replies';

const shareBody = z
  .object({
    /** A signed-in user's name; without it the share is a link. */
    user: z.string().min(1).max(200).optional(),
    turn: z
      .string()
      .regex(/^t\d{1,6}$/, 'turn must be a turn id such as t1')
      .optional(),
    debug: z.boolean().optional(),
    expiresInHours: z.number().positive().optional(),
  })
  .strict();

/** `POST /conversations/:id/shares` and `GET` of the list. */
export interface ShareReply {
  share: ShareView;
}
export interface ShareListReply {
  shares: ShareView[];
}

export interface ShareRouteDeps {
  service: ConversationService;
  secret: string;
  hours: { default: number; max: number };
  audit: RouteAudit;
}

/**
 * The owner's side of sharing, under /conversations/:id (whose owner check applies): make a read-only grant for a
 * user or an expiring link, list them with their links, revoke one.
 */
export function registerShareRoutes(app: Hono<AuthEnv>, deps: ShareRouteDeps): void {
  const { service, secret } = deps;
  const limit = bodyLimit({
    maxSize: 16 * 1024,
    onError: (c) => c.json({ error: 'the body is over the limit of 16 KiB' }, 413),
  });

  app.post('/conversations/:id/shares', limit, async (c) => {
    const id = c.req.param('id');
    const body = await parse(c, shareBody);
    const me = c.get('user');
    if (body.user === me.name)
      throw new ConversationError('bad_input', 'you cannot share a conversation with yourself');
    const hours = body.expiresInHours ?? (body.user ? undefined : deps.hours.default);
    if (hours !== undefined && hours > deps.hours.max)
      throw new ConversationError('bad_input', `expiresInHours may be at most ${deps.hours.max}`);
    const now = Date.now();
    const grant = await service.share(id, {
      to: body.user ? { user: body.user } : { link: true },
      ...(body.turn ? { turnId: body.turn } : {}),
      debug: body.debug ?? false,
      createdBy: me.name,
      createdAt: new Date(now).toISOString(),
      ...(hours !== undefined ? { expiresAt: now + Math.round(hours * 3_600_000) } : {}),
    });
    await deps.audit(c, 'share', id, {
      share: grant.id,
      to: body.user ?? 'link',
      turn: body.turn,
      debug: grant.debug,
      expiresAt: grant.expiresAt,
    });
    return c.json({ share: shareView(id, grant, secret) } satisfies ShareReply, 201);
  });

  app.get('/conversations/:id/shares', async (c) => {
    const id = c.req.param('id');
    return c.json({ shares: (await service.shares(id)).map((g) => shareView(id, g, secret)) } satisfies ShareListReply);
  });

  app.delete('/conversations/:id/shares/:shareId', async (c) => {
    const id = c.req.param('id');
    await service.unshare(id, c.req.param('shareId'));
    await deps.audit(c, 'unshare', id, { share: c.req.param('shareId') });
    return c.body(null, 204);
  });
}
