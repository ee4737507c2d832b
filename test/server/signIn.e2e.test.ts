/**
 * Sign-in and same-origin rules against the REAL server (server/start.ts: every route, the sign-in guard, the host and
 * origin rules), a real Temporal dev server and in-process workers; the model is scripted. Requests are sent with exactly
 * the headers a browser or an attacker would send (rawRequest), including Host and Origin.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_API } from '../../server/auth/signInGuard';
import { startServer, type RunningServer } from '../../server/start';
import type { WorkerSet } from '../../workers/createWorkers';
import { startE2E, startInProcessWorkers, type E2EEnv } from '../helpers/e2e';
import { rawRequest, type RawResponse } from '../helpers/rawHttp';
import { buildRunFolder, standardRun } from '../report/fixtures';

const SECRET_CSV = 'region,amount\nnorth,alice-secret-7731\n';
const PROXY = {
  header: 'x-forwarded-email',
  addresses: ['127.0.0.1'],
  roles: { 'ops@example.com': 'operator' as const },
};
/** The routes outside /api: the app's own code (page, modules, vendored libraries), the same for everyone. */
const STATIC_ROUTES = ['GET /', 'GET /app/*', 'GET /vendor/*'];

describe('sign-in, Host and Origin rules on the real server', () => {
  let env: E2EEnv;
  let workers: WorkerSet;
  let running: Promise<void>;
  /** Trusts the proxy header from 127.0.0.1 (the two-user tests). */
  let main: RunningServer;
  /** Trusts it only from 10.9.9.9, an address no test request comes from. */
  let strict: RunningServer;
  let ownConversation: string;

  const send = (
    server: RunningServer,
    p: string,
    o: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
  ) => rawRequest(`${server.url}${p}`, o);
  const bearer = (server: RunningServer) => ({ authorization: `Bearer ${server.token}` });
  const asUser = (email: string) => ({ [PROXY.header]: email });
  const json = { 'content-type': 'application/json' };
  const sameOrigin = (server: RunningServer) => ({ origin: server.url });
  const listIds = async (server: RunningServer, headers: Record<string, string>) =>
    (await send(server, '/api/conversations', { headers }))
      .json<{ conversations: Array<{ id: string }> }>()
      .conversations.map((c) => c.id);

  beforeAll(async () => {
    env = await startE2E(
      { rules: [], fallback: () => ({ text: 'The total is 42.' }) },
      {
        config: { recalc: { engine: 'none' }, conversation: { dir: mkdtempSync(path.join(os.tmpdir(), 'sb-conv-')) } },
      },
    );
    workers = await startInProcessWorkers(env, { recalc: false });
    running = workers.run();
    const runsDir = mkdtempSync(path.join(os.tmpdir(), 'sb-runs-'));
    // A real run folder: the report route serves files of runs only (run.json naming the run), nothing else of runsDir.
    await buildRunFolder(runsDir, standardRun('r1'));
    writeFileSync(path.join(runsDir, 'r1', 'report.html'), '<h1>run r1</h1>');
    const temporal = { address: env.temporal.address, namespace: env.temporal.namespace };
    main = await startServer({
      config: { ...env.config, server: { ...env.config.server, proxy: PROXY } },
      client: env.client,
      temporal,
      port: 0,
      runsDir,
    });
    const strictState = mkdtempSync(path.join(os.tmpdir(), 'sb-server-'));
    strict = await startServer({
      config: {
        ...env.config,
        server: { ...env.config.server, stateDir: strictState, proxy: { ...PROXY, addresses: ['10.9.9.9'] } },
      },
      client: env.client,
      temporal,
      port: 0,
      runsDir,
    });
    const created = await send(main, '/api/conversations', {
      method: 'POST',
      headers: { ...bearer(main), ...json },
      body: '{"title":"own"}',
    });
    expect(created.status).toBe(201);
    ownConversation = created.json<{ id: string }>().id;
  }, 180_000);
  afterAll(async () => {
    await strict?.close();
    await main?.close();
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('answers 401 without a token on every /api route and file route, enumerated from the router', async () => {
    const routes = main.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`);
    const apiRoutes = [...new Set(routes.filter((r) => r.split(' ')[1].startsWith('/api/')))];
    // Every route is either the app's static code or under /api; a new file route elsewhere fails here.
    expect(routes.filter((r) => !apiRoutes.includes(r)).sort()).toEqual(STATIC_ROUTES);
    expect(apiRoutes.length).toBeGreaterThanOrEqual(15);
    const publicRoutes = PUBLIC_API.map((r) => `${r.method} ${r.path}`);
    const checked: string[] = [];
    for (const route of apiRoutes.filter((r) => !publicRoutes.includes(r))) {
      const [method, pattern] = route.split(' ') as [string, string];
      const url = pattern
        .replace(/:id\b/, pattern.startsWith('/api/runs') ? 'r1' : ownConversation)
        .replace(/:(\w+)\{([^|}]+)[^}]*\}/g, '$2')
        .replace(/\*$/, pattern.includes('/report/') ? 'report.html' : 'data.csv');
      const res = await send(main, url, {
        method,
        headers: method === 'GET' || method === 'DELETE' ? {} : json,
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
      expect(res.status, `${route} → ${url}`).toBe(401);
      expect(res.json<{ signIn: boolean }>().signIn, route).toBe(true);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      checked.push(route);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /api/conversations/:id/files/*',
        'GET /api/runs/:id/report/*',
        'GET /api/conversations/:id/events',
        'POST /api/conversations/:id/files',
      ]),
    );
    // The public ones: health, and the login exchange (which still needs the token in its body).
    expect((await send(main, '/api/health')).status).toBe(200);
    expect((await send(main, '/api/session', { method: 'POST', headers: json, body: '{"token":"nope"}' })).status).toBe(
      401,
    );
  });

  it('refuses a wrong token, a forged or expired cookie; the right token works as Bearer and as the login cookie', async () => {
    const wrong = await send(strict, '/api/conversations', {
      headers: { authorization: 'Bearer wrong-token-wrong-token-wrong' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json<{ error: string }>().error).toMatch(/wrong token/);
    expect(
      (await send(strict, '/api/conversations', { headers: { authorization: 'Basic abc' } })).json<{ error: string }>()
        .error,
    ).toMatch(/Bearer <token>/);
    expect((await send(main, '/api/conversations', { headers: bearer(main) })).status).toBe(200);
    // Another server's token is no token here.
    expect((await send(main, '/api/conversations', { headers: bearer(strict) })).status).toBe(401);

    const login = await send(main, '/api/session', {
      method: 'POST',
      headers: { ...json, ...sameOrigin(main) },
      body: JSON.stringify({ token: main.token }),
    });
    expect(login.status).toBe(200);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const cookie = setCookie.split(';')[0];
    const viaCookie = await send(main, '/api/session', { headers: { cookie } });
    expect(viaCookie.json()).toMatchObject({ user: { role: 'admin', via: 'cookie' }, authRequired: true });
    const [name, value] = cookie.split('=') as [string, string];
    const forged = `${name}=${Buffer.from(JSON.stringify({ sid: 'x', user: 'token:mallory', exp: Date.now() + 1e9 })).toString('base64url')}.${value.split('.')[1]}`;
    const refused = await send(main, '/api/conversations', { headers: { cookie: forged } });
    expect(refused.status).toBe(401);
    expect(refused.json<{ error: string }>().error).toMatch(/not valid \(forged/);

    // Signing out revokes the cookie itself, not only the browser's copy.
    const out = await send(main, '/api/session', { method: 'DELETE', headers: { cookie, ...sameOrigin(main) } });
    expect(out.status).toBe(204);
    const after = await send(main, '/api/conversations', { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.json<{ error: string }>().error).toMatch(/signed out/);
  });

  it('slows down repeated wrong tokens per client (429 with Retry-After, even for the right token, until the wait is over)', async () => {
    const state = mkdtempSync(path.join(os.tmpdir(), 'sb-server-'));
    const throttled = await startServer({
      config: { ...env.config, server: { ...env.config.server, stateDir: state } },
      client: env.client,
      temporal: { address: env.temporal.address, namespace: env.temporal.namespace },
      port: 0,
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push(
          (
            await send(throttled, '/api/conversations', {
              headers: { authorization: `Bearer guess-${i}-xxxxxxxxxxxxxxxxxxxx` },
            })
          ).status,
        );
      // Five free tries, then each one waits (1 s, 2 s, 4 s… after the last failure).
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const blocked = await send(throttled, '/api/conversations', { headers: bearer(throttled) });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(blocked.json<{ error: string }>().error).toMatch(/too many wrong tokens from 127\.0\.0\.1/);
      await new Promise((r) => setTimeout(r, Number(blocked.headers['retry-after']) * 1000 + 100));
      expect((await send(throttled, '/api/conversations', { headers: bearer(throttled) })).status).toBe(200);
    } finally {
      await throttled.close();
    }
  });

  it('refuses a foreign Host (DNS rebinding), even with the right token; answers to its own names', async () => {
    for (const host of [
      `evil.example:${main.port}`,
      'evil.example',
      `127.0.0.1.evil.example:${main.port}`,
      `127.0.0.2:${main.port}`,
      `[::2]:${main.port}`,
    ]) {
      const res = await send(main, '/api/conversations', { headers: { host, ...bearer(main) } });
      expect(res.status, host).toBe(403);
      expect(res.text).not.toContain(ownConversation);
      expect((await send(main, '/', { headers: { host } })).status, `page for ${host}`).toBe(403);
    }
    // A Host that is not a host name at all is refused before any route runs (400 from the HTTP layer, or 403).
    for (const host of [`localhost:${main.port}@evil.example`, `evil.example/${main.port}`]) {
      const res = await send(main, '/api/conversations', { headers: { host, ...bearer(main) } });
      expect([400, 403], JSON.stringify(host)).toContain(res.status);
      expect(res.text).not.toContain(ownConversation);
    }
    for (const host of [
      `localhost:${main.port}`,
      `127.0.0.1:${main.port}`,
      `[::1]:${main.port}`,
      `LOCALHOST:${main.port}`,
    ]) {
      expect((await send(main, '/api/conversations', { headers: { host, ...bearer(main) } })).status, host).toBe(200);
    }
  });

  it('refuses cross-site text/plain, form and multipart POSTs and foreign-origin deletes; nothing changes', async () => {
    const login = await send(main, '/api/session', {
      method: 'POST',
      headers: { ...json, ...sameOrigin(main) },
      body: JSON.stringify({ token: main.token }),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const before = await listIds(main, bearer(main));
    const evil = 'http://evil.example';
    const attempts: Array<{
      what: string;
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string;
    }> = [
      {
        what: 'text/plain create',
        method: 'POST',
        path: '/api/conversations',
        headers: { origin: evil, 'content-type': 'text/plain', cookie },
        body: '{"title":"pwned"}',
      },
      {
        what: 'form create',
        method: 'POST',
        path: '/api/conversations',
        headers: { origin: evil, 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: 'title=pwned',
      },
      {
        what: 'JSON create from another port',
        method: 'POST',
        path: '/api/conversations',
        headers: { origin: `http://127.0.0.1:${main.port + 1}`, ...json, cookie },
        body: '{"title":"pwned"}',
      },
      {
        what: 'null origin',
        method: 'POST',
        path: '/api/conversations',
        headers: { origin: 'null', ...json, cookie },
        body: '{"title":"pwned"}',
      },
      {
        what: 'cross-site fetch metadata without Origin',
        method: 'POST',
        path: '/api/conversations',
        headers: { 'sec-fetch-site': 'cross-site', ...json, cookie },
        body: '{"title":"pwned"}',
      },
      {
        what: 'message as text/plain',
        method: 'POST',
        path: `/api/conversations/${ownConversation}/messages`,
        headers: { origin: evil, 'content-type': 'text/plain', cookie },
        body: '{"text":"run rm -rf"}',
      },
      {
        what: 'multipart upload',
        method: 'POST',
        path: `/api/conversations/${ownConversation}/files`,
        headers: { origin: evil, 'content-type': 'multipart/form-data; boundary=sbBoundary7731', cookie },
        body: '--sbBoundary7731\r\nContent-Disposition: form-data; name="file"; filename="evil.csv"\r\n\r\na,b\r\n--sbBoundary7731--\r\n',
      },
      {
        what: 'rename',
        method: 'PATCH',
        path: `/api/conversations/${ownConversation}`,
        headers: { origin: evil, ...json, cookie },
        body: '{"title":"pwned"}',
      },
      {
        what: 'delete',
        method: 'DELETE',
        path: `/api/conversations/${ownConversation}`,
        headers: { origin: evil, cookie },
      },
      {
        what: "login CSRF (the attacker's token)",
        method: 'POST',
        path: '/api/session',
        headers: { origin: evil, 'content-type': 'text/plain' },
        body: JSON.stringify({ token: main.token }),
      },
    ];
    for (const a of attempts) {
      const res = await send(main, a.path, { method: a.method, headers: a.headers, body: a.body });
      expect(res.status, a.what).toBe(403);
      expect(res.headers['set-cookie'], a.what).toBeUndefined();
    }
    // A same-origin browser request still needs JSON; a cookie request without Origin is refused.
    expect(
      (
        await send(main, '/api/conversations', {
          method: 'POST',
          headers: { ...sameOrigin(main), 'content-type': 'text/plain', cookie },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    expect(
      (await send(main, '/api/conversations', { method: 'POST', headers: { ...json, cookie }, body: '{}' })).status,
    ).toBe(403);
    // No CORS header is sent, whatever the Origin.
    const probe = await send(main, '/api/conversations', { headers: { origin: evil, ...bearer(main) } });
    expect(Object.keys(probe.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const preflight = await send(main, '/api/conversations', {
      method: 'OPTIONS',
      headers: { origin: evil, 'access-control-request-method': 'POST' },
    });
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);

    expect(await listIds(main, bearer(main))).toEqual(before);
    const view = (await send(main, `/api/conversations/${ownConversation}`, { headers: bearer(main) })).json<{
      title: string;
      files: unknown[];
      messages: unknown[];
    }>();
    expect(view).toMatchObject({ title: 'own', files: [], messages: [] });
  });

  it("keeps two users of the trusted proxy apart: neither reads, changes or downloads the other's conversations or files", async () => {
    const alice = asUser('alice@example.com');
    const bob = asUser('bob@example.com');
    const noOrigin = await send(main, '/api/conversations', {
      method: 'POST',
      headers: { ...alice, ...json },
      body: '{"title":"alice only"}',
    });
    expect(noOrigin.status).toBe(403); // a browser behind the proxy always sends Origin on a change
    const created = await send(main, '/api/conversations', {
      method: 'POST',
      headers: { ...alice, ...json, ...sameOrigin(main) },
      body: '{"title":"alice only"}',
    });
    expect(created.status).toBe(201);
    const id = created.json<{ id: string; owner: string }>().id;
    expect(created.json<{ owner: string }>().owner).toBe('alice@example.com');
    const upload = await send(main, `/api/conversations/${id}/files`, {
      method: 'POST',
      headers: { ...alice, ...sameOrigin(main), 'content-type': 'multipart/form-data; boundary=sbBoundary7731' },
      body: `--sbBoundary7731\r\nContent-Disposition: form-data; name="file"; filename="secret.csv"\r\nContent-Type: text/csv\r\n\r\n${SECRET_CSV}\r\n--sbBoundary7731--\r\n`,
    });
    expect(upload.status).toBe(201);
    expect((await send(main, `/api/conversations/${id}/files/secret.csv`, { headers: alice })).text).toBe(SECRET_CSV);

    expect(await listIds(main, bob)).not.toContain(id);
    expect(await listIds(main, alice)).toEqual([id]);
    const bobTries: Array<[string, string, string?]> = [
      ['GET', `/api/conversations/${id}`],
      ['GET', `/api/conversations/${id}/files/secret.csv`],
      ['GET', `/api/conversations/${id}/files/secret.csv?inline=1`],
      ['GET', `/api/conversations/${id}/debug`],
      ['GET', `/api/conversations/${id}/events?after=0`],
      ['PATCH', `/api/conversations/${id}`, '{"title":"bob was here"}'],
      ['POST', `/api/conversations/${id}/messages`, '{"text":"hello"}'],
      ['POST', `/api/conversations/${id}/cancel`],
      ['DELETE', `/api/conversations/${id}`],
    ];
    for (const [method, p, body] of bobTries) {
      const res = await send(main, p, {
        method,
        headers: { ...bob, ...(body ? json : {}), ...(method === 'GET' ? {} : sameOrigin(main)) },
        body,
      });
      expect([403, 404], `${method} ${p}`).toContain(res.status);
      expect(res.text, `${method} ${p}`).not.toMatch(/alice-secret|alice only/);
    }
    const bobUpload = await send(main, `/api/conversations/${id}/files`, {
      method: 'POST',
      headers: { ...bob, ...sameOrigin(main), 'content-type': 'multipart/form-data; boundary=sbBoundary7731' },
      body: '--sbBoundary7731\r\nContent-Disposition: form-data; name="file"; filename="secret.csv"\r\n\r\nbob\r\n--sbBoundary7731--\r\n',
    });
    expect(bobUpload.status).toBe(404);
    // Nothing of alice's changed; the admin (the server's token) sees it.
    const view = (await send(main, `/api/conversations/${id}`, { headers: alice })).json<{
      title: string;
      messages: unknown[];
    }>();
    expect(view).toMatchObject({ title: 'alice only', messages: [] });
    expect((await send(main, `/api/conversations/${id}/files/secret.csv`, { headers: alice })).text).toBe(SECRET_CSV);
    expect(await listIds(main, bearer(main))).toContain(id);
    // The runs view is for everyone signed in; run control needs the operator role.
    expect((await send(main, '/api/runs', { headers: bob })).status).toBe(200);
    expect((await send(main, '/api/runs/r1/report/report.html', { headers: bob })).text).toContain('run r1');
    const pause = await send(main, '/api/runs/r1/pause', { method: 'POST', headers: { ...bob, ...sameOrigin(main) } });
    expect(pause.status).toBe(403);
    expect(pause.json<{ error: string }>().error).toMatch(/operator role/);
    const opPause = await send(main, '/api/runs/r1/pause', {
      method: 'POST',
      headers: { ...asUser('ops@example.com'), ...sameOrigin(main) },
    });
    expect(opPause.status).toBe(404); // allowed past the role check: r1 is a folder, not a run Temporal knows
  });

  it('ignores the proxy header from an address that is not a configured proxy', async () => {
    const res = await send(strict, '/api/session', { headers: asUser('alice@example.com') });
    expect(res.status).toBe(401);
    const create = await send(strict, '/api/conversations', {
      method: 'POST',
      headers: { ...asUser('alice@example.com'), ...json, ...sameOrigin(strict) },
      body: '{}',
    });
    expect(create.status).toBe(401);
    // With the token as well, the caller is the token's holder, never the name in the header.
    const who = (
      await send(strict, '/api/session', { headers: { ...asUser('alice@example.com'), ...bearer(strict) } })
    ).json<{ user: { name: string; via: string } }>();
    expect(who.user.name).not.toBe('alice@example.com');
    expect(who.user.via).toBe('bearer');
  });

  // Reads what the tests above did too (sign-in failures, alice's upload, refusals): run the file whole.
  it('writes an audit log of who signed in, created, uploaded, sent, cancelled and deleted, from where; never a token or file content', async () => {
    const owner = bearer(main);
    const created = (
      await send(main, '/api/conversations', {
        method: 'POST',
        headers: { ...owner, ...json },
        body: '{"title":"audited"}',
      })
    ).json<{ id: string }>().id;
    const sent = await send(main, `/api/conversations/${created}/messages`, {
      method: 'POST',
      headers: { ...owner, ...json },
      body: '{"text":"What is the total? my-private-question-text"}',
    });
    expect(sent.status).toBe(202);
    await send(main, `/api/conversations/${created}/cancel`, { method: 'POST', headers: owner });
    expect((await send(main, `/api/conversations/${created}`, { method: 'DELETE', headers: owner })).status).toBe(204);
    const text = await readFile(path.join(main.stateDir, 'audit.jsonl'), 'utf8');
    const entries = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { at: string; action: string; user?: string; client: string; target?: string });
    for (const action of ['sign_in', 'sign_in_failed', 'sign_out', 'create', 'upload', 'send', 'delete', 'denied']) {
      expect(
        entries.map((e) => e.action),
        action,
      ).toContain(action);
    }
    const mine = entries.filter((e) => e.target === created);
    expect(mine.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'send', 'delete']));
    for (const e of entries) {
      expect(e.client).toBe('127.0.0.1');
      expect(Number.isNaN(Date.parse(e.at))).toBe(false);
    }
    expect(entries.find((e) => e.action === 'upload' && e.user === 'alice@example.com')).toBeDefined();
    expect(text).not.toContain(main.token!);
    expect(text).not.toContain('alice-secret');
    expect(text).not.toContain('my-private-question-text');
  });

  it("sends the security headers; files and run reports cannot run script in the app's origin", async () => {
    const page = await send(main, '/');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline/);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const id = ownConversation;
    const html = '<script>document.title="owned"</script>';
    const up = await send(main, `/api/conversations/${id}/files`, {
      method: 'POST',
      headers: { ...bearer(main), 'content-type': 'multipart/form-data; boundary=sbBoundary7731' },
      body: `--sbBoundary7731\r\nContent-Disposition: form-data; name="file"; filename="page.txt"\r\nContent-Type: text/plain\r\n\r\n${html}\r\n--sbBoundary7731--\r\n`,
    });
    expect(up.status).toBe(201);
    for (const url of [
      `/api/conversations/${id}/files/page.txt`,
      `/api/conversations/${id}/files/page.txt?inline=1`,
      '/api/runs/r1/report/report.html',
    ]) {
      const res: RawResponse = await send(main, url, { headers: bearer(main) });
      expect(res.status, url).toBe(200);
      expect(String(res.headers['content-security-policy']), url).toMatch(/^sandbox;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(
      (await send(main, `/api/conversations/${id}/files/page.txt`, { headers: bearer(main) })).headers[
        'content-disposition'
      ],
    ).toMatch(/^attachment/);
  });
});
