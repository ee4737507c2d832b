import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { signedClaims } from './signedClaims';

/** What a session cookie says: who, until when, and an id so that signing out can revoke it. */
export interface SessionClaims {
  sid: string;
  user: string;
  /** The session's end, in ms since the epoch. */
  exp: number;
}

/** The claims read back from a cookie, maybe signed by another version of the server: loose, the three fields required. */
const sessionClaimsSchema = z.looseObject({ sid: z.string(), user: z.string(), exp: z.number() });

export type CookieCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: string };

/** `<claims as base64url JSON>.<HMAC-SHA256 of them>`: the server keeps no session table, only a secret. */
export function signSession(
  user: string,
  lifetimeMs: number,
  secret: string,
  now = Date.now(),
): SessionClaims & { value: string } {
  const claims: SessionClaims = { sid: randomBytes(12).toString('base64url'), user, exp: now + lifetimeMs };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { ...claims, value: `${body}.${mac(body, secret)}` };
}

export function verifySession(value: string, secret: string, now = Date.now()): CookieCheck {
  const [body, sig, extra] = value.split('.');
  if (!body || !sig || extra !== undefined) return { ok: false, reason: 'the session cookie is malformed' };
  const expected = Buffer.from(mac(body, secret));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      reason: 'the session cookie is not valid (forged, or from before the token was rotated): sign in again',
    };
  }
  const claims = signedClaims(body, sessionClaimsSchema);
  if (!claims) return { ok: false, reason: 'the session cookie is malformed' };
  if (claims.exp <= now) return { ok: false, reason: 'the session has expired: sign in again' };
  return { ok: true, claims };
}

function mac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}
