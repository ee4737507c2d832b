import type { MiddlewareHandler } from 'hono';
import { hostNameOf } from './hostNames';

/** Refuses a request whose Host is not one of the server's names (a DNS-rebinding page's requests carry its own name). */
export function hostGuard(allowed: Set<string>): MiddlewareHandler {
  return async (c, next) => {
    const name = hostNameOf(c.req.header('host'));
    if (!name || !allowed.has(name)) {
      return c.json(
        {
          error: `this server does not answer to the host name "${c.req.header('host') ?? ''}" (add it to server.publicNames if it is yours)`,
        },
        403,
      );
    }
    await next();
  };
}

/** The API's and files' default policy: nothing may run, nothing may frame it. The page (server/routes/web.ts) sets its own. */
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Headers on every response. No CORS header is ever sent: other origins cannot read anything. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    if (!h.has('content-security-policy')) h.set('content-security-policy', DEFAULT_CSP);
    h.set('x-content-type-options', 'nosniff');
    h.set('referrer-policy', 'no-referrer');
    h.set('x-frame-options', 'DENY');
    h.set('cross-origin-opener-policy', 'same-origin');
    h.set('cross-origin-resource-policy', 'same-origin');
    for (const name of [...h.keys()]) if (name.startsWith('access-control-')) h.delete(name);
  };
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where a state-changing request comes from: 'same' (Origin names this server), 'none' (no Origin: not a browser, or
 * a very old one), or the refusal's reason (another origin, `null`, or a cross-site Sec-Fetch-Site).
 */
export function requestOrigin(headers: {
  origin?: string;
  host?: string;
  secFetchSite?: string;
}): 'same' | 'none' | { refused: string } {
  const site = headers.secFetchSite;
  if (site && site !== 'same-origin' && site !== 'none')
    return { refused: `a ${site} request may not change anything here` };
  if (headers.origin === undefined) return 'none';
  let host: string | undefined;
  try {
    host = new URL(headers.origin).host;
  } catch {
    host = undefined;
  }
  if (!host || headers.origin === 'null' || host.toLowerCase() !== (headers.host ?? '').toLowerCase()) {
    return { refused: `requests from origin ${headers.origin} may not change anything here` };
  }
  return 'same';
}

/** JSON routes take only application/json bodies: a form or text/plain body (which needs no CORS preflight) is refused. */
export function isJsonContentType(value: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(value ?? '');
}
