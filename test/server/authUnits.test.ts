/** The sign-in parts on their own: secret files, the users file, session cookies, the throttle, host and origin rules, start-up refusals. */
import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverConfigSchema } from '../../config/schema';
import { prepareSignIn, rotateToken } from '../../server/auth/prepare';
import { AuthSetupError, readOrCreateSecret } from '../../server/auth/secretFile';
import { signSession, verifySession } from '../../server/auth/sessionCookie';
import { FailureThrottle } from '../../server/auth/throttle';
import { addUser, readUsersFile, removeUser, tokenSha256, UsersStore } from '../../server/auth/usersFile';
import { Authenticator } from '../../server/auth/authenticator';
import { allowedHostNames, hostNameOf } from '../../server/security/hostNames';
import { isJsonContentType, requestOrigin } from '../../server/security/guards';

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'sb-auth-'));
const server = (stateDir: string, extra: Record<string, unknown> = {}) =>
  serverConfigSchema.parse({ stateDir, ...extra });

describe('secret files', () => {
  it('creates a token of at least 128 bits with mode 0600 in a 0700 folder, and reuses it', async () => {
    const dir = path.join(await tmp(), 'state');
    const first = await readOrCreateSecret(path.join(dir, 'token'));
    expect(first.created).toBe(true);
    expect(Buffer.from(first.value, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect((await stat(path.join(dir, 'token'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const again = await readOrCreateSecret(path.join(dir, 'token'));
    expect(again).toEqual({ value: first.value, created: false });
  });

  it('refuses a token file that others can read, naming the file and the fix', async () => {
    const file = path.join(await tmp(), 'token');
    await writeFile(file, 'x'.repeat(32));
    await chmod(file, 0o644);
    await expect(readOrCreateSecret(file)).rejects.toThrow(new RegExp(`${file} has mode 644.*chmod 600`));
  });

  it('rotation gives a new token and a new cookie secret', async () => {
    const cfg = server(await tmp());
    const before = await prepareSignIn({ server: cfg, host: '127.0.0.1' });
    const { token } = await rotateToken(cfg);
    const after = await prepareSignIn({ server: cfg, host: '127.0.0.1' });
    expect(after.token).toBe(token);
    expect(token).not.toBe(before.token);
    expect(after.auth.cookieName).not.toBe(before.auth.cookieName);
  });
});

describe('refusing to start where the server would be open', () => {
  it('--no-auth only on loopback; a short token; --no-auth with a proxy', async () => {
    const cfg = server(await tmp());
    await expect(prepareSignIn({ server: cfg, host: '0.0.0.0', noAuth: true })).rejects.toThrow(
      /--no-auth is allowed only on a loopback address.*0\.0\.0\.0/,
    );
    await expect(prepareSignIn({ server: cfg, host: '192.168.1.4', noAuth: true })).rejects.toThrow(AuthSetupError);
    await expect(prepareSignIn({ server: cfg, host: '127.0.0.1', token: 'short' })).rejects.toThrow(
      /5 characters; it needs at least 24/,
    );
    await expect(
      prepareSignIn({
        server: server(cfg.stateDir, { proxy: { addresses: ['10.0.0.1'] } }),
        host: '127.0.0.1',
        noAuth: true,
      }),
    ).rejects.toThrow(/contradict/);
    const open = await prepareSignIn({ server: cfg, host: '127.0.0.1', noAuth: true });
    expect(open.token).toBeUndefined();
    expect(open.notes.join('\n')).toMatch(/sign-in is OFF/);
  });

  it('a users file that does not parse stops the start with its cause', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'users.json');
    await writeFile(file, '{"users": [', { mode: 0o600 });
    await expect(prepareSignIn({ server: server(dir, { usersFile: file }), host: '127.0.0.1' })).rejects.toThrow(
      new RegExp(`users file ${file} is not valid JSON`),
    );
    await writeFile(file, JSON.stringify({ users: [{ name: 'a', role: 'boss', tokenSha256: 'x' }] }));
    await expect(readUsersFile(file)).rejects.toThrow(
      /users\.0\.role: .*users\.0\.tokenSha256: tokenSha256 must be 64/s,
    );
    await expect(
      prepareSignIn({ server: server(dir, { usersFile: path.join(dir, 'none.json') }), host: '127.0.0.1' }),
    ).rejects.toThrow(/does not exist/);
  });
});

describe('users file', () => {
  it('adds users with hashed tokens only, finds them by token, and removes them', async () => {
    const file = path.join(await tmp(), 'users.json');
    const alice = await addUser(file, 'alice', 'operator');
    await addUser(file, 'bob', 'user');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(alice);
    expect(text).toContain(tokenSha256(alice));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const store = await new UsersStore(file).load();
    expect((await store.byToken(alice))?.name).toBe('alice');
    expect(await store.byToken('not-a-token')).toBeUndefined();
    expect(await removeUser(file, 'alice')).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.byToken(alice)).toBeUndefined();
  });
});

describe('session cookies', () => {
  it('verifies its own, refuses forged, tampered, expired and malformed ones with the cause', () => {
    const s = signSession('token:me', 60_000, 'secret-1');
    expect(verifySession(s.value, 'secret-1')).toMatchObject({ ok: true, claims: { user: 'token:me', sid: s.sid } });
    expect(verifySession(s.value, 'secret-2')).toMatchObject({ ok: false, reason: expect.stringMatching(/forged/) });
    const [body, sig] = s.value.split('.');
    const tampered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), user: 'token:admin' }),
    ).toString('base64url');
    expect(verifySession(`${tampered}.${sig}`, 'secret-1').ok).toBe(false);
    expect(verifySession(signSession('token:me', 1000, 'secret-1', Date.now() - 5000).value, 'secret-1')).toMatchObject(
      { ok: false, reason: expect.stringMatching(/expired/) },
    );
    expect(verifySession('garbage', 'secret-1')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/malformed/),
    });
  });

  it('a signed-out session stays out, across a restart (a new authenticator reading the same state)', async () => {
    const dir = await tmp();
    const settings = {
      token: 't'.repeat(32),
      ownerName: 'me',
      cookieSecret: 's'.repeat(40),
      sessionMs: 60_000,
      proxy: { header: 'x-forwarded-email', addresses: [], roles: {} },
      signedOutFile: path.join(dir, 'signed-out.jsonl'),
    };
    const auth = new Authenticator(settings);
    const signedIn = await auth.signIn('1.2.3.4', 't'.repeat(32));
    const cookieHeader = `${auth.cookieName}=${signedIn.cookie}`;
    expect(await auth.identify({ client: '1.2.3.4', cookieHeader })).toMatchObject({
      ok: true,
      user: { name: 'me', role: 'admin', via: 'cookie' },
    });
    await auth.signOut(signedIn.ok ? signedIn.session! : (undefined as never));
    expect(await auth.identify({ client: '1.2.3.4', cookieHeader })).toMatchObject({
      ok: false,
      status: 401,
      error: expect.stringMatching(/signed out/),
    });
    const restarted = await new Authenticator(settings).loadSignedOut();
    expect(await restarted.identify({ client: '1.2.3.4', cookieHeader })).toMatchObject({ ok: false, status: 401 });
  });

  it('the signed-out file: a torn last line is left out, a corrupt complete line stops the start naming file and line', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'signed-out.jsonl');
    const settings = {
      token: 't'.repeat(32),
      ownerName: 'me',
      cookieSecret: 's'.repeat(40),
      sessionMs: 60_000,
      proxy: { header: 'x-forwarded-email', addresses: [], roles: {} },
      signedOutFile: file,
    };
    const exp = Date.now() + 60_000;
    await writeFile(file, `${JSON.stringify({ sid: 'a', exp })}\n{"sid":"b","ex`);
    await expect(new Authenticator(settings).loadSignedOut()).resolves.toBeInstanceOf(Authenticator);
    await writeFile(file, `${JSON.stringify({ sid: 'a', exp })}\n{"sid":"b"}\n`);
    await expect(new Authenticator(settings).loadSignedOut()).rejects.toThrow(`${file}:2: unexpected content: exp: `);
  });

  it('the proxy header counts only from a configured proxy address', async () => {
    const auth = new Authenticator({
      token: 't'.repeat(32),
      ownerName: 'me',
      cookieSecret: 's'.repeat(40),
      sessionMs: 60_000,
      proxy: { header: 'x-forwarded-email', addresses: ['10.0.0.7'], roles: { 'boss@x': 'admin' } },
      signedOutFile: '/nonexistent/x',
    });
    expect(await auth.identify({ client: '10.0.0.7', proxyUser: 'ann@x' })).toMatchObject({
      ok: true,
      user: { name: 'ann@x', role: 'user', via: 'proxy' },
    });
    expect(await auth.identify({ client: '10.0.0.7', proxyUser: 'boss@x' })).toMatchObject({
      ok: true,
      user: { role: 'admin' },
    });
    expect(await auth.identify({ client: '10.0.0.8', proxyUser: 'boss@x' })).toMatchObject({ ok: false, status: 401 });
  });
});

describe('wrong-token throttle', () => {
  it('five free tries, then 1 s, 2 s, 4 s… after the last failure; a success or 15 idle minutes clear it', () => {
    let now = 0;
    const t = new FailureThrottle({ now: () => now });
    for (let i = 0; i < 5; i++) {
      expect(t.waitMs('a')).toBe(0);
      t.fail('a');
    }
    expect(t.waitMs('a')).toBe(1000);
    expect(t.waitMs('b')).toBe(0);
    now = 1000;
    t.fail('a');
    expect(t.waitMs('a')).toBe(2000);
    for (let i = 0; i < 20; i++) t.fail('a');
    expect(t.waitMs('a')).toBe(60_000);
    t.succeed('a');
    expect(t.waitMs('a')).toBe(0);
    for (let i = 0; i < 8; i++) t.fail('c');
    now += 16 * 60_000;
    expect(t.waitMs('c')).toBe(0);
  });

  it('keeps a bounded table of clients', () => {
    const t = new FailureThrottle({ maxClients: 3, freeTries: 0 });
    for (const c of ['a', 'b', 'c', 'd']) t.fail(c);
    expect(t.waitMs('a')).toBe(0);
    expect(t.waitMs('d')).toBeGreaterThan(0);
  });
});

describe('host and origin rules', () => {
  it('parses Host headers and refuses what is not a name of the server', () => {
    const names = allowedHostNames('127.0.0.1', ['sheets.example.com']);
    expect(
      ['localhost:8787', '127.0.0.1:8787', '[::1]:8787', 'SHEETS.example.com.', 'sheets.example.com'].map((h) =>
        names.has(hostNameOf(h)!),
      ),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['evil.example:8787', 'localhost.evil.example', '127.0.0.1.nip.io', '', 'a b', 'x@127.0.0.1', '127.0.0.1/x'].map(
        (h) => names.has(hostNameOf(h) ?? ''),
      ),
    ).toEqual([false, false, false, false, false, false, false]);
    expect(allowedHostNames('0.0.0.0', []).has(os.hostname().toLowerCase())).toBe(true);
  });

  it('a state change needs the same origin, or none at all; JSON only', () => {
    expect(requestOrigin({ origin: 'http://127.0.0.1:8787', host: '127.0.0.1:8787' })).toBe('same');
    expect(requestOrigin({ host: '127.0.0.1:8787' })).toBe('none');
    expect(requestOrigin({ origin: 'http://evil.example', host: '127.0.0.1:8787' })).toEqual({
      refused: expect.stringMatching(/evil\.example/),
    });
    expect(requestOrigin({ origin: 'http://127.0.0.1:9999', host: '127.0.0.1:8787' })).toHaveProperty('refused');
    expect(requestOrigin({ origin: 'null', host: '127.0.0.1:8787' })).toHaveProperty('refused');
    expect(requestOrigin({ host: '127.0.0.1:8787', secFetchSite: 'cross-site' })).toHaveProperty('refused');
    expect(requestOrigin({ host: '127.0.0.1:8787', secFetchSite: 'same-site' })).toHaveProperty('refused');
    expect(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'].every(isJsonContentType)).toBe(
      true,
    );
    expect(
      ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/jsonx', undefined].some(
        isJsonContentType,
      ),
    ).toBe(false);
  });
});
