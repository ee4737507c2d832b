import { Hono } from 'hono';
import { setCookie, deleteCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AuditLog } from './auditLog';
import type { Authenticator } from './authenticator';
import { clientAddress } from './signInGuard';
import type { AuthEnv, User } from './user';

const signInBody = z.object({ token: z.string().min(1).max(1000) }).strict();

/** Who is signed in, as the browser sees it. */
export type PublicUser = Pick<User, 'name' | 'role' | 'via'>;

/** `POST /api/session` and `GET /api/session`. */
export interface SessionReply {
  user: PublicUser;
  authRequired: boolean;
}

/**
 * `POST /api/session {token}` → the session cookie (HttpOnly, SameSite=Strict); `GET /api/session` → who is signed in;
 * `DELETE /api/session` → signs out (the cookie is revoked, not only forgotten).
 */
export function sessionRoutes(deps: { auth: Authenticator; audit: AuditLog }): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const cookieOptions = { httpOnly: true, sameSite: 'Strict', path: '/' } as const;

  app.post('/session', async (c) => {
    const client = clientAddress(c);
    const body = signInBody.safeParse(await c.req.json().catch(() => undefined)); // not JSON: refused by the schema as a bad body
    if (!body.success) return c.json({ error: 'the body must be {"token": "<token>"}', signIn: true }, 401);
    const result = await deps.auth.signIn(client, body.data.token);
    if (!result.ok) {
      await deps.audit.write({ action: 'sign_in_failed', client, detail: { reason: result.error } });
      if (result.retryAfterS) c.header('Retry-After', String(result.retryAfterS));
      return c.json({ error: result.error, signIn: true }, result.status);
    }
    setCookie(c, deps.auth.cookieName, result.cookie!, { ...cookieOptions, maxAge: deps.auth.sessionMaxAgeS() });
    await deps.audit.write({ action: 'sign_in', user: result.user.name, client });
    return c.json({ user: publicUser(result.user), authRequired: deps.auth.enabled } satisfies SessionReply);
  });

  app.get('/session', (c) =>
    c.json({ user: publicUser(c.get('user')), authRequired: deps.auth.enabled } satisfies SessionReply),
  );

  app.delete('/session', async (c) => {
    const user = c.get('user');
    const found = await deps.auth.identify({ client: clientAddress(c), cookieHeader: c.req.header('cookie') });
    if (found.ok && found.session) await deps.auth.signOut(found.session);
    deleteCookie(c, deps.auth.cookieName, cookieOptions);
    await deps.audit.write({ action: 'sign_out', user: user.name, client: clientAddress(c) });
    return c.body(null, 204);
  });

  return app;
}

const publicUser = (u: User): PublicUser => ({ name: u.name, role: u.role, via: u.via });
