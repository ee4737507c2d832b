import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { signedClaims } from '../auth/signedClaims';

/** What a share link names: the conversation, the grant, and the link's end (ms since the epoch; none for a user's grant without one). */
export interface ShareClaims {
  c: string;
  g: string;
  exp?: number;
}

/** The claims read back from a link, maybe signed by another version of the server. */
const shareClaimsSchema = z.looseObject({ c: z.string(), g: z.string(), exp: z.number().optional() });

export type LinkCheck = { ok: true; claims: ShareClaims } | { ok: false; reason: string };

/**
 * `<claims as base64url JSON>.<HMAC-SHA256 of them under the server's share secret>`, as session cookies are signed:
 * the server keeps no table of links, only the grants they name (so revoking a grant kills its links).
 */
export function signShareLink(claims: ShareClaims, secret: string): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${mac(body, secret)}`;
}

/** Checks the signature (constant time), then the shape, then the expiry. */
export function verifyShareLink(token: string, secret: string, now = Date.now()): LinkCheck {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined)
    return { ok: false, reason: 'this share link is malformed (copy the whole link)' };
  const expected = Buffer.from(mac(body, secret));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'this share link is not valid: it was altered, or forged' };
  const claims = signedClaims(body, shareClaimsSchema);
  if (!claims) return { ok: false, reason: 'this share link is malformed (copy the whole link)' };
  if (claims.exp !== undefined && claims.exp <= now)
    return {
      ok: false,
      reason: `this share link expired on ${new Date(claims.exp).toISOString()}: ask its owner for a new one`,
    };
  return { ok: true, claims };
}

function mac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(`share-link:${body}`).digest('base64url');
}
