import { Hono, type Context } from 'hono';
import type { ConversationService } from '../../client/conversations';
import type { AuditLog } from '../auth/auditLog';
import type { AuthEnv } from '../auth/user';
import { openShare, shareView, type SharedScope, type ShareView } from '../sharing/access';
import type { ShareGrant } from '../../analysis/conversation/shares';
import type { ConversationView } from '../../analysis/conversation/view';
import { errorReply, exportQuery, routeAudit, sendExport, sendWorkspaceFile, streamEvents } from './replies';
import { ConversationError } from '../../analysis/conversation/errors';

/** `GET /shared`: what others shared with me (the web app is type-checked against it: web/tsconfig.json). */
export interface SharedListReply {
  shared: (ShareView & { conversationId: string; title: string; owner?: string })[];
}

/** `GET /shared/:token`: the share and its conversation (without the Temporal UI link: the viewer is not its owner). */
export interface SharedConversationReply {
  share: Pick<ShareGrant, 'turnId' | 'debug' | 'expiresAt'> & { owner?: string; title: string; readOnly: true };
  conversation: Omit<ConversationView, 'temporalUiUrl'>;
}

export interface SharedRouteDeps {
  service: ConversationService;
  audit: AuditLog;
  secret: string;
  pollMs?: number;
  pingMs?: number;
}

/**
 * The viewer's side of sharing (`/shared/<token>…`): read-only — the chat, its files and exports, the debug view when
 * granted — and a fork into the viewer's own conversations. Nothing here changes the original: the only write is the
 * fork, which makes a new conversation. Every request re-checks the link (a revoke or deletion applies at once).
 */
export function sharedRoutes(deps: SharedRouteDeps): Hono<AuthEnv> {
  const { service } = deps;
  const app = new Hono<AuthEnv>();
  app.onError((err, c) => errorReply(c, err));
  const audit = routeAudit(deps.audit);

  /** The share the URL's token opens for this user; a refusal is audited and answered with its reason. */
  const open = async (c: Context<AuthEnv>): Promise<SharedScope> => {
    try {
      return await openShare(service, c.req.param('token') ?? '', c.get('user'), deps.secret);
    } catch (err) {
      if (err instanceof ConversationError)
        await audit(c, 'denied', 'share link', { reason: err.message, route: `${c.req.method} ${c.req.path}` });
      throw err;
    }
  };

  app.get('/shared', async (c) => {
    const mine = await service.sharedWith(c.get('user').name);
    return c.json({
      shared: mine.map(({ info, grant }) => ({
        conversationId: info.id,
        title: info.title,
        owner: info.owner,
        ...shareView(info.id, grant, deps.secret),
      })),
    } satisfies SharedListReply);
  });

  app.get('/shared/:token', async (c) => {
    const s = await open(c);
    const { temporalUiUrl: _hidden, ...conversation } = await service.get(s.conversationId, s.grant.turnId);
    await audit(c, 'view_shared', s.conversationId, { share: s.grant.id });
    return c.json({
      share: {
        owner: s.owner,
        title: s.title,
        turnId: s.grant.turnId,
        debug: s.grant.debug,
        expiresAt: s.grant.expiresAt,
        readOnly: true,
      },
      conversation,
    } satisfies SharedConversationReply);
  });

  app.get('/shared/:token/events', async (c) => {
    const s = await open(c);
    return streamEvents(c, (after) => service.events(s.conversationId, after, s.grant.turnId), deps);
  });

  app.get('/shared/:token/debug', async (c) => {
    const s = await open(c);
    if (!s.grant.debug) throw new ConversationError('forbidden', 'this share does not include the debug view');
    return c.json({ steps: await service.debug(s.conversationId, s.grant.turnId) });
  });

  app.get('/shared/:token/files/*', async (c) => {
    const s = await open(c);
    const prefix = `/shared/${c.req.param('token')}/files/`;
    const rel = decodeURIComponent(c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length));
    return sendWorkspaceFile(c, await service.resolveFile(s.conversationId, rel, s.grant.turnId));
  });

  app.get('/shared/:token/export', async (c) => {
    const s = await open(c);
    const query = exportQuery(c);
    const file = await service.export(s.conversationId, {
      format: query.format,
      ...(s.grant.turnId ? { turnId: s.grant.turnId } : query.turnId ? { turnId: query.turnId } : {}),
    });
    await audit(c, 'export', s.conversationId, { share: s.grant.id, file: file.filename });
    return sendExport(c, file);
  });

  app.post('/shared/:token/fork', async (c) => {
    const s = await open(c);
    const forked = await service.fork(s.conversationId, c.get('user').name, {
      ...(s.grant.turnId ? { turnId: s.grant.turnId } : {}),
      debug: s.grant.debug,
    });
    await audit(c, 'fork', forked.id, { from: s.conversationId, share: s.grant.id, turn: s.grant.turnId });
    return c.json(forked, 201);
  });

  return app;
}
