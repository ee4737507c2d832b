import { Hono } from 'hono';
import type { Client } from '@temporalio/client';
import type { ConversationService } from '../client/conversations';
import type { PreparedSignIn } from './auth/prepare';
import { sessionRoutes } from './auth/sessionRoutes';
import { signInGuard } from './auth/signInGuard';
import type { AuthEnv } from './auth/user';
import { conversationRoutes } from './routes/conversations';
import { sharedRoutes } from './routes/shared';
import { runsRoutes, type RunsRoutesDeps } from './routes/runs';
import { runPagesRoutes } from './routes/runPages';
import { webRoutes } from './routes/web';
import { hostGuard, securityHeaders } from './security/guards';

export interface AppDeps {
  service: ConversationService;
  /** The process's one Temporal client (from the config, TLS included): every route uses it, none dials its own. */
  client: Client;
  /** Temporal Web UI base (`http://host:port/namespaces/<ns>/workflows`) for links to workflows. */
  temporalUiUrl?: string;
  maxUploadBytes: number;
  /** Share links: the default and longest life (config server.shareLinkHours, maxShareLinkHours). */
  shareLinkHours: { default: number; max: number };
  /** Sign-in, the audit log and the server's host names (server/auth/prepare.ts); there is no app without them. */
  signIn: Pick<PreparedSignIn, 'auth' | 'audit' | 'allowedHosts' | 'proxyHeader' | 'shareSecret'>;
  runs?: Pick<RunsRoutesDeps, 'runsDir' | 'artifactsRoot'>;
}

/**
 * The one HTTP app. Every request passes the Host check and gets the security headers; everything under /api (the
 * conversations, their files, the runs and their reports) needs sign-in except /api/health and the login exchange.
 */
export function createApp(deps: AppDeps): Hono<AuthEnv> {
  const { auth, audit, allowedHosts, proxyHeader } = deps.signIn;
  const app = new Hono<AuthEnv>();
  app.use('*', securityHeaders());
  app.use('*', hostGuard(allowedHosts));
  app.use('/api/*', signInGuard({ auth, audit, proxyHeader }));
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.route('/api', sessionRoutes({ auth, audit }));
  const sharing = { secret: deps.signIn.shareSecret, hours: deps.shareLinkHours };
  app.route('/api', conversationRoutes({ service: deps.service, maxUploadBytes: deps.maxUploadBytes, audit, sharing }));
  app.route('/api', sharedRoutes({ service: deps.service, audit, secret: sharing.secret }));
  const { runsDir, artifactsRoot } = deps.runs ?? {};
  app.route('/', runsRoutes({ runsDir, artifactsRoot, client: deps.client, uiUrl: deps.temporalUiUrl, audit }));
  app.route('/', runPagesRoutes({ runsDir, artifactsRoot, client: deps.client, uiUrl: deps.temporalUiUrl }));
  app.route('/', webRoutes());
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) =>
    c.json(
      { error: err instanceof URIError ? `bad URL encoding in ${c.req.path}` : 'internal error' },
      err instanceof URIError ? 400 : 500,
    ),
  );
  return app;
}
