import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signSession, verifySession } from '../../server/auth/sessionCookie';
import { signShareLink, verifyShareLink } from '../../server/sharing/shareLink';

const SECRET = 'test-secret';
/** A correctly signed token whose claims are `claims` (what a buggy or other version of the server could have signed). */
function signedAs(claims: unknown, prefix = ''): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${createHmac('sha256', SECRET)
    .update(prefix + body)
    .digest('base64url')}`;
}
const linkSignedAs = (claims: unknown) => signedAs(claims, 'share-link:');

describe('signed claims read back from a session cookie', () => {
  it('loads a cookie this server signed, and one with extra claims of another version', () => {
    const now = 1_000_000;
    const signed = signSession('ana', 60_000, SECRET, now);
    expect(verifySession(signed.value, SECRET, now)).toMatchObject({ ok: true, claims: { user: 'ana' } });
    const extra = signedAs({ sid: 's', user: 'bo', exp: now + 1, scope: 'all' });
    expect(verifySession(extra, SECRET, now)).toMatchObject({ ok: true, claims: { user: 'bo' } });
  });
  it('refuses a signed cookie of the wrong shape or not JSON, naming the cookie', () => {
    for (const bad of [
      signedAs({ sid: 's', exp: 5e12 }),
      signedAs({ sid: 's', user: 'u', exp: 'never' }),
      signedAs([]),
    ])
      expect(verifySession(bad, SECRET, 0)).toEqual({ ok: false, reason: 'the session cookie is malformed' });
    const notJson = Buffer.from('{"sid":').toString('base64url');
    const token = `${notJson}.${createHmac('sha256', SECRET).update(notJson).digest('base64url')}`;
    expect(verifySession(token, SECRET, 0)).toEqual({ ok: false, reason: 'the session cookie is malformed' });
  });
});

describe('signed claims read back from a share link', () => {
  it('loads a link with and without an end', () => {
    expect(verifyShareLink(signShareLink({ c: 'c1', g: 'g1' }, SECRET), SECRET)).toMatchObject({
      ok: true,
      claims: { c: 'c1', g: 'g1' },
    });
    expect(verifyShareLink(signShareLink({ c: 'c1', g: 'g1', exp: 10 }, SECRET), SECRET, 5).ok).toBe(true);
  });
  it('refuses a signed link of the wrong shape, naming the link', () => {
    for (const bad of [linkSignedAs({ c: 'c1' }), linkSignedAs({ c: 'c1', g: 'g1', exp: '10' }), linkSignedAs('x')])
      expect(verifyShareLink(bad, SECRET)).toEqual({
        ok: false,
        reason: 'this share link is malformed (copy the whole link)',
      });
  });
});
