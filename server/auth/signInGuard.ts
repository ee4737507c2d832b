import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isJsonContentType, requestOrigin, STATE_CHANGING } from '../security/guards';
import type { AuditLog } from './auditLog';
import type { Authenticator } from './authenticator';
import type { AuthEnv } from './user';

/** Routes under /api that answer without sign-in: the health check, and the login exchange itself. */
export const PUBLIC_API = [
  { method: 'GET', path: '/api/health' },
  { method: 'POST', path: '/api/session' },
] as const;

const isPublic = (method: string, path: string) => PUBLIC_API.some((r) => r.method === method && r.path === path);

/** Uploads are multipart; every other body the API takes is JSON. */
const isUpload = (path: string) => /^\/api\/conversations\/[^/]+\/files$/.test(path);

/**
 * Guards /api: a state-changing request must come from this server's own origin (or, without any Origin, from a
 * Bearer client) and carry JSON; then the caller must be signed in. The user is in `c.get('user')` for the routes.
 */
export function signInGuard(deps: { auth: Authenticator; audit: AuditLog; proxyHeader: string }): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const { method, path } = c.req;
    const client = clientAddress(c);
    const changing = STATE_CHANGING.has(method);
    const origin = changing ? requestOrigin({ origin: c.req.header('origin'), host: c.req.header('host'), secFetchSite: c.req.header('sec-fetch-site') }) : 'none';
    if (typeof origin === 'object') {
      await deps.audit.write({ action: 'denied', client, target: `${method} ${path}`, detail: { reason: 'cross-origin' } });
      return c.json({ error: origin.refused }, 403);
    }
    // A body (or a declared type: a form always declares one) must be JSON; a bare POST such as cancel needs none.
    const type = c.req.header('content-type');
    const hasBody = type !== undefined || Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
    if (changing && hasBody) {
      const ok = isUpload(path) ? /^multipart\/form-data/i.test(type ?? '') : isJsonContentType(type);
      if (!ok) return c.json({ error: `${method} ${path} takes ${isUpload(path) ? 'multipart/form-data' : 'application/json'}, not ${type ?? 'no Content-Type'}` }, 415);
    }
    if (isPublic(method, path)) return next();
    const found = await deps.auth.identify({
      client,
      authorization: c.req.header('authorization'),
      cookieHeader: c.req.header('cookie'),
      proxyUser: c.req.header(deps.proxyHeader),
    });
    if (!found.ok) {
      if (found.retryAfterS) c.header('Retry-After', String(found.retryAfterS));
      c.header('WWW-Authenticate', 'Bearer realm="sheetbench"');
      return c.json({ error: found.error, signIn: true }, found.status);
    }
    if (changing && origin === 'none' && found.user.via === 'cookie') {
      return c.json({ error: 'a browser request that changes something must carry its Origin header' }, 403);
    }
    c.set('user', found.user);
    await next();
  };
}

/** The peer's address (IPv4-mapped IPv6 written as IPv4): the trusted-proxy check and the throttle key on it. */
export function clientAddress(c: Context): string {
  const address = getConnInfo(c).remote.address ?? 'unknown';
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}
