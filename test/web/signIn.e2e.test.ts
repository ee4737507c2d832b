/**
 * Other sites against the app, in real Chromium: a signed-in user visits an attacker's page, served from another port
 * of 127.0.0.1 (same site, so even SameSite=Strict cookies go along) and from a host name that Chromium's
 * --host-resolver-rules maps to 127.0.0.1 (another site). The page tries to read the API, to change things with
 * no-cors fetches and form posts (text/plain, urlencoded, multipart), a CORS request, and to frame the app. A third
 * attack is DNS rebinding: the attacker's name first serves its page, then leads to the app (here: the attacker's
 * server passes /api requests on to the app unchanged, Host header included, which is what a re-bound name does), so
 * the browser treats the API as same-origin; it runs against a --no-auth server, where only the Host check stands.
 * Checked on the server: nothing was read, nothing changed. Then the app still works after login through the URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import { startAnalysisEnv, type AnalysisEnv } from '../helpers/analysis';
import { launchChromium, newConversation, signIn } from './browser';
import { SALES_CSV } from './salesScript';
import { salesReply } from './salesModel';

/** The attacker's page: every attempt's outcome lands in window.results (what the page could see). */
const ATTACK_PAGE = `<!doctype html><meta charset="utf-8"><title>cute cats</title>
<iframe name="sink"></iframe><iframe id="framed"></iframe>
<script>
const q = new URLSearchParams(location.search);
const app = q.get('app') ?? '';
const conv = q.get('conv');
const results = {};
const attempt = async (name, fn) => { try { results[name] = String(await fn()); } catch (e) { results[name] = 'error: ' + e.name; } };
const loaded = (frame, start) => new Promise((done) => { frame.onload = done; start(); setTimeout(done, 4000); });
const readFrame = (frame) => { try { return frame.contentDocument ? frame.contentDocument.body.innerText : 'unreadable'; } catch (e) { return 'error: ' + e.name; } };
(async () => {
  await attempt('read list', async () => (await fetch(app + '/api/conversations', { credentials: 'include' })).text());
  await attempt('read conversation', async () => (await fetch(app + '/api/conversations/' + conv, { credentials: 'include' })).text());
  await attempt('read file', async () => (await fetch(app + '/api/conversations/' + conv + '/files/sales.csv', { credentials: 'include' })).text());
  await attempt('no-cors create', async () => { const r = await fetch(app + '/api/conversations', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"title":"pwned-fetch"}' }); return r.type + ':' + (await r.text()); });
  await attempt('no-cors message', async () => { const r = await fetch(app + '/api/conversations/' + conv + '/messages', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"text":"delete everything"}' }); return r.type; });
  await attempt('no-cors upload', async () => { const fd = new FormData(); fd.append('file', new Blob(['x,y']), 'evil.csv'); const r = await fetch(app + '/api/conversations/' + conv + '/files', { method: 'POST', mode: 'no-cors', credentials: 'include', body: fd }); return r.type; });
  await attempt('cors JSON create', async () => (await fetch(app + '/api/conversations', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{"title":"pwned-cors"}' })).status);
  await attempt('no-cors delete', async () => (await fetch(app + '/api/conversations/' + conv, { method: 'DELETE', mode: 'no-cors', credentials: 'include' })).type);
  const sink = document.querySelector('iframe[name=sink]');
  for (const [enctype, action] of [['text/plain', '/api/conversations'], ['application/x-www-form-urlencoded', '/api/conversations'], ['multipart/form-data', '/api/conversations/' + conv + '/files']]) {
    const form = document.createElement('form');
    Object.assign(form, { method: 'POST', action: app + action, enctype, target: 'sink' });
    const input = document.createElement('input');
    Object.assign(input, { name: '{"title":"pwned-form","x":"', value: '"}' });
    form.appendChild(input);
    document.body.appendChild(form);
    await loaded(sink, () => form.submit());
    results['form ' + enctype] = readFrame(sink);
  }
  const framed = document.getElementById('framed');
  await loaded(framed, () => { framed.src = (app || location.origin) + '/'; });
  results['frame'] = readFrame(framed);
  window.results = results;
  document.title = 'done';
})();
</script>`;

describe('sign-in, and other origins against the app, in Chromium: they read nothing and change nothing', () => {
  let a: AnalysisEnv;
  let open: RunningServer;
  let attacker: http.Server;
  let attackerPort: number;
  let rebinder: http.Server;
  let rebinderPort: number;
  let browser: Browser;
  let context: BrowserContext;
  let victimConversation: string;

  const ids = async () => (await a.server.service.list()).map((c) => c.id).sort();

  beforeAll(async () => {
    a = await startAnalysisEnv(salesReply);
    // Sign-in off (loopback only): the DNS-rebinding target, guarded by the Host check alone.
    open = await startServer({
      config: a.env.config,
      client: a.env.client,
      temporal: { address: a.env.temporal.address, namespace: a.env.temporal.namespace },
      port: 0,
      noAuth: true,
    });
    attacker = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(ATTACK_PAGE));
    attackerPort = await listenOnLoopback(attacker);
    rebinder = http.createServer((req, res) => {
      if (!req.url?.startsWith('/api/'))
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(ATTACK_PAGE);
      const upstream = http.request(
        { host: '127.0.0.1', port: open.port, method: req.method, path: req.url, headers: req.headers },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    rebinderPort = await listenOnLoopback(rebinder);
    browser = await launchChromium(['--host-resolver-rules=MAP evil.test 127.0.0.1']);
    context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, a.server.loginUrl); // the victim is signed in: the session cookie is in this browser
    victimConversation = (
      await a.json<{ id: string }>('/api/conversations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"victim"}',
      })
    ).id;
    const form = new FormData();
    form.append('file', new Blob([SALES_CSV], { type: 'text/csv' }), 'sales.csv');
    expect((await a.api(`/api/conversations/${victimConversation}/files`, { method: 'POST', body: form })).status).toBe(
      201,
    );
    await page.close();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    attacker?.close();
    rebinder?.close();
    await open?.close();
    await a?.close();
  });

  async function attack(pageUrl: string, app: string): Promise<Record<string, string>> {
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    await page.goto(`${pageUrl}?app=${encodeURIComponent(app)}&conv=${victimConversation}`);
    await page.waitForFunction('document.title === "done"', undefined, { timeout: 60_000 });
    const results = await page.evaluate<Record<string, string>>('window.results');
    // A framed copy of the app never rendered: the browser refused it (frame-ancestors 'none' / X-Frame-Options).
    for (const frame of page.frames().slice(1)) {
      if (frame.url().startsWith(app || 'http://evil.test'))
        expect(await frame.locator('.sidebar, #app > *').count(), frame.url()).toBe(0);
    }
    await page.close();
    return { ...results, console: console.join('\n') };
  }

  async function expectNothingChanged(before: string[]) {
    expect(await ids()).toEqual(before);
    const view = await a.json<{ title: string; messages: unknown[]; files: Array<{ path: string }> }>(
      `/api/conversations/${victimConversation}`,
    );
    expect(view.title).toBe('victim');
    expect(view.messages).toEqual([]);
    expect(view.files.map((f) => f.path)).toEqual(['sales.csv']);
  }

  for (const site of ['another port of 127.0.0.1', 'another host name (evil.test)']) {
    it(`a page from ${site}: fetch, no-cors writes, form posts and an iframe read and change nothing`, async () => {
      const before = await ids();
      const pageUrl = site.startsWith('another port')
        ? `http://127.0.0.1:${attackerPort}/`
        : `http://evil.test:${attackerPort}/`;
      const r = await attack(pageUrl, a.server.url);
      for (const read of ['read list', 'read conversation', 'read file', 'cors JSON create'])
        expect(r[read], read).toBe('error: TypeError');
      // An opaque reply, or none at all (Cross-Origin-Resource-Policy: same-origin): either way the page sees nothing.
      for (const write of ['no-cors create', 'no-cors message', 'no-cors upload', 'no-cors delete'])
        expect(r[write], write).toMatch(/^(opaque:?|error: TypeError)$/);
      for (const form of [
        'form text/plain',
        'form application/x-www-form-urlencoded',
        'form multipart/form-data',
        'frame',
      ]) {
        expect(r[form], form).not.toMatch(/victim|sales|conversations/);
      }
      expect(r.console).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
      await expectNothingChanged(before);
    }, 120_000);
  }

  it("DNS rebinding: requests under the attacker's name that reach the app are refused by the Host check, even with sign-in off", async () => {
    const before = await ids();
    const r = await attack(`http://evil.test:${rebinderPort}/rebind.html`, '');
    for (const read of ['read list', 'read conversation', 'read file']) {
      expect(r[read], read).toMatch(/does not answer to the host name/);
      expect(r[read], read).not.toContain(victimConversation);
    }
    expect(r['cors JSON create']).toBe('403');
    await expectNothingChanged(before);
    // The same server does answer on its own name.
    expect((await fetch(`${open.url}/api/conversations`)).status).toBe(200);
  }, 120_000);

  it("the sign-in pages: no token, a wrong one in the URL, the token typed in; the user's name shown; sign-out ends the session", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(a.server.url);
    await expect.poll(() => page.locator('main.sign-in').textContent()).toContain('This server needs its token');
    await page.goto(`${a.server.url}/?token=not-the-right-token-at-all`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('That token is not right');
    expect(page.url()).not.toContain('token=');
    await page.getByLabel('Token').fill(a.server.token!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const name = page.locator('.signed-in .user-name');
    await name.waitFor();
    const who = (await a.json<{ user: { name: string } }>('/api/session')).user.name;
    expect(await name.textContent()).toBe(who);
    const cookies = await ctx.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.locator('main.sign-in').textContent()).toContain('You are signed out');
    // The old cookie itself is dead, not only forgotten by this browser.
    const reused = await fetch(`${a.server.url}/api/conversations`, {
      headers: { cookie: `${cookies[0].name}=${cookies[0].value}` },
    });
    expect(reused.status).toBe(401);
    expect(pageErrors).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('the app itself still works after login through the URL: a conversation, an upload and an answer', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, a.server.loginUrl);
    expect(page.url()).not.toContain('token=');
    await newConversation(page);
    await page
      .locator('#file-input')
      .setInputFiles({ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(SALES_CSV) });
    await page.locator('.chip-uploaded').waitFor();
    await page.getByLabel('Message').fill('Total sales by region');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('article.turn .status-completed').waitFor({ timeout: 120_000 });
    expect(await page.locator('article.turn .answer').textContent()).toContain('West');
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 180_000);
});

async function listenOnLoopback(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}
