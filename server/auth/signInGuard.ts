import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isJsonContentType, requestOrigin, STATE_CHANGING } from '../security/guards';
import type { AuditLog } from './auditLog';
import type { Authenticator } from './authenticator';
import type { AuthEnv, User } from './user';

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
 * Bearer client); then the caller must be signed in; then a body must be JSON (multipart for uploads). The order
 * matters: a caller who is not signed in learns only that. The user is in `c.get('user')` for the routes.
 */
export function signInGuard(deps: {
  auth: Authenticator;
  audit: AuditLog;
  proxyHeader: string;
}): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const { method, path } = c.req;
    const changing = STATE_CHANGING.has(method);
    const origin = changing
      ? requestOrigin({
          origin: c.req.header('origin'),
          host: c.req.header('host'),
          secFetchSite: c.req.header('sec-fetch-site'),
        })
      : 'none';
    if (typeof origin === 'object') {
      await deps.audit.write({
        action: 'denied',
        client: clientAddress(c),
        target: `${method} ${path}`,
        detail: { reason: 'cross-origin' },
      });
      return c.json({ error: origin.refused }, 403);
    }
    let user: User | undefined;
    if (!isPublic(method, path)) {
      const found = await identify(c, deps);
      if (!found.ok) return c.json({ error: found.error, signIn: found.signIn }, found.status);
      // A browser stands behind a cookie and behind the sign-in proxy: its state-changing requests always carry Origin.
      if (changing && origin === 'none' && (found.user.via === 'cookie' || found.user.via === 'proxy')) {
        return c.json({ error: 'a browser request that changes something must carry its Origin header' }, 403);
      }
      user = found.user;
    }
    const refused = changing ? bodyTypeRefusal(c) : undefined;
    if (refused) return c.json({ error: refused }, 415);
    if (user) c.set('user', user);
    await next();
  };
}

/** The caller, or the refusal (401 or 429, with WWW-Authenticate and Retry-After set on the reply). */
async function identify(
  c: Context,
  deps: { auth: Authenticator; proxyHeader: string },
): Promise<{ ok: true; user: User } | { ok: false; status: 401 | 429; error: string; signIn: true }> {
  const found = await deps.auth.identify({
    client: clientAddress(c),
    authorization: c.req.header('authorization'),
    cookieHeader: c.req.header('cookie'),
    proxyUser: c.req.header(deps.proxyHeader),
  });
  if (found.ok) return found;
  if (found.retryAfterS) c.header('Retry-After', String(found.retryAfterS));
  c.header('WWW-Authenticate', 'Bearer realm="sheetbench"');
  return { ok: false, status: found.status, error: found.error, signIn: true };
}

/**
 * Why a state-changing request's body is refused, if it is: it must be JSON (multipart for uploads), which a
 * cross-site form or a no-cors fetch cannot send. A bare POST such as cancel has no body and needs no type.
 */
function bodyTypeRefusal(c: Context): string | undefined {
  const { method, path } = c.req;
  const type = c.req.header('content-type');
  const hasBody =
    type !== undefined ||
    Number(c.req.header('content-length') ?? 0) > 0 ||
    c.req.header('transfer-encoding') !== undefined;
  if (!hasBody) return undefined;
  const upload = isUpload(path);
  const ok = upload ? /^multipart\/form-data/i.test(type ?? '') : isJsonContentType(type);
  return ok
    ? undefined
    : `${method} ${path} takes ${upload ? 'multipart/form-data' : 'application/json'}, not ${type ?? 'no Content-Type'}`;
}

/** The peer's address (IPv4-mapped IPv6 written as IPv4): the trusted-proxy check and the throttle key on it. */
export function clientAddress(c: Context): string {
  const address = getConnInfo(c).remote.address ?? 'unknown';
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}
