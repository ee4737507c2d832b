/**
 * A bounded fuzz of the real server's API (signed in with the token): malformed JSON, huge headers and bodies, path
 * traversal in the file routes with every encoding, unicode and malformed ids, and seeded random bodies and paths.
 * Every reply must be a 4xx with a JSON error, the server must stay up, and nothing outside a conversation's
 * workspace (a sentinel beside the conversations, the conversation's own records, /etc/passwd, the token) is served.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import type { WorkerSet } from '../../workers/createWorkers';
import { startE2E, startInProcessWorkers, type E2EEnv } from '../helpers/e2e';
import { rawExchange, rawRequest } from '../helpers/rawHttp';
import { seededRandom } from '../helpers/seededRandom';
import { buildRunFolder, standardRun } from '../report/fixtures';

const SENTINEL = 'SENTINEL-outside-the-workspace-5521';
const DATA = 'a,b\n1,2\n';

describe('API fuzz on the real server: every reply a clear 4xx, the server up, nothing outside the workspace served', () => {
  let env: E2EEnv;
  let workers: WorkerSet;
  let running: Promise<void>;
  let server: RunningServer;
  let id: string;
  let conversationsDir: string;
  const seen: Array<{ what: string; status: number; body: string }> = [];

  /** One request with the token; records the reply for the checks that hold for all of them. */
  async function hit(
    what: string,
    p: string,
    o: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
  ) {
    const res = await rawRequest(`${server.url}${p}`, {
      ...o,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(o.method && o.method !== 'GET' ? { origin: server.url } : {}),
        ...o.headers,
      },
    });
    seen.push({ what, status: res.status, body: res.text });
    return res;
  }
  async function hitRaw(
    what: string,
    requestTarget: string | Buffer,
    extraHeaders = '',
    o: { method?: string; body?: string } = {},
  ) {
    const head = Buffer.concat([
      Buffer.from(`${o.method ?? 'GET'} `),
      Buffer.isBuffer(requestTarget) ? requestTarget : Buffer.from(requestTarget, 'utf8'),
      Buffer.from(
        ` HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\n${extraHeaders}Connection: close\r\n\r\n${o.body ?? ''}`,
      ),
    ]);
    const res = await rawExchange(server.port, head);
    seen.push({ what, status: res.status, body: res.body });
    return res;
  }

  beforeAll(async () => {
    conversationsDir = mkdtempSync(path.join(os.tmpdir(), 'sb-conv-'));
    env = await startE2E(
      { rules: [], fallback: () => ({ text: 'ok' }) },
      { config: { recalc: { engine: 'none' }, conversation: { dir: conversationsDir, maxUploadBytes: 100_000 } } },
    );
    workers = await startInProcessWorkers(env, { recalc: false });
    running = workers.run();
    const runsDir = mkdtempSync(path.join(os.tmpdir(), 'sb-runs-'));
    // A real run folder: the report route serves files of runs only (run.json naming the run), nothing else of runsDir.
    await buildRunFolder(runsDir, standardRun('r1'));
    writeFileSync(path.join(runsDir, 'r1', 'report.html'), '<h1>r1</h1>');
    writeFileSync(path.join(runsDir, 'secret.html'), SENTINEL);
    server = await startServer({
      config: env.config,
      client: env.client,
      temporal: { address: env.temporal.address, namespace: env.temporal.namespace },
      port: 0,
      runsDir,
    });
    const created = await rawRequest(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: '{"title":"fuzz"}',
    });
    id = created.json<{ id: string }>().id;
    const up = await rawRequest(`${server.url}/api/conversations/${id}/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': 'multipart/form-data; boundary=sbBoundary7731',
      },
      body: `--sbBoundary7731\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\n${DATA}\r\n--sbBoundary7731--\r\n`,
    });
    expect(up.status, up.text).toBe(201);
    // Beside the conversations, and a link to it planted in the workspace (as a tool could).
    writeFileSync(path.join(conversationsDir, 'outside.txt'), SENTINEL);
    symlinkSync(path.join(conversationsDir, 'outside.txt'), path.join(conversationsDir, id, 'workspace', 'link.txt'));
    symlinkSync('/etc', path.join(conversationsDir, id, 'workspace', 'etc'));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('malformed, hostile and oversized JSON bodies on every JSON route', async () => {
    const bodies = [
      '',
      '{',
      '{"title":',
      'null',
      '[]',
      '"str"',
      '123',
      '{"title": 5}',
      '{"title":"x","extra":1}',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      '\u0000\u0001',
      '{"text":' + '9'.repeat(10_000) + '}',
      '{"text":"hi","files":["../../conversation.json"]}',
      '{"text":"hi","files":["/etc/passwd"]}',
      '{"text":"hi","pattern":"rm -rf"}',
      '{"token":{"$ne":null}}',
    ];
    const routes: Array<[string, string]> = [
      ['POST', '/api/conversations'],
      ['PATCH', `/api/conversations/${id}`],
      ['POST', `/api/conversations/${id}/messages`],
      ['POST', '/api/session'],
    ];
    for (const [method, p] of routes) {
      for (const body of bodies) {
        if (method === 'POST' && p === '/api/conversations' && body === '') continue; // an empty create is valid
        const res = await hit(`${method} ${p} ${body.slice(0, 40)}`, p, {
          method,
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status, `${method} ${p} with ${JSON.stringify(body.slice(0, 60))}`).toBeGreaterThanOrEqual(400);
      }
    }
    // Oversized bodies are refused from their Content-Length, before they are read (so over a raw socket).
    const hugeBody = JSON.stringify({ title: 'x'.repeat(3_000_000) });
    const huge = await hitRaw(
      '3 MB JSON',
      '/api/conversations',
      `Origin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: ${hugeBody.length}\r\n`,
      { method: 'POST', body: hugeBody },
    );
    expect(huge.status).toBe(413);
    const uploadBody = `--sbBoundary7731\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n${'x'.repeat(1_300_000)}\r\n--sbBoundary7731--\r\n`;
    const bigUpload = await hitRaw(
      'upload over the limit',
      `/api/conversations/${id}/files`,
      `Content-Type: multipart/form-data; boundary=sbBoundary7731\r\nContent-Length: ${uploadBody.length}\r\n`,
      { method: 'POST', body: uploadBody },
    );
    expect(bigUpload.status).toBe(413);
    const badMultipart = await hit('broken multipart', `/api/conversations/${id}/files`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=sbBoundary7731' },
      body: '--sbBoundary7731\r\nnonsense',
    });
    expect(badMultipart.status).toBeGreaterThanOrEqual(400);
    // Nothing of that reached the conversation.
    const view = (
      await rawRequest(`${server.url}/api/conversations/${id}`, {
        headers: { authorization: `Bearer ${server.token}` },
      })
    ).json<{ title: string; messages: unknown[]; files: Array<{ path: string }> }>();
    expect(view.title).toBe('fuzz');
    expect(view.messages).toEqual([]);
  }, 120_000);

  it('huge and many headers get a 431 or 400 with a JSON error', async () => {
    const res = await hitRaw('80 KiB header', `/api/conversations/${id}`, `X-Big: ${'a'.repeat(80_000)}\r\n`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/headers are over the limit/) });
    const many = await hitRaw(
      '3000 headers',
      `/api/conversations/${id}`,
      Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join(''),
    );
    expect([400, 431]).toContain(many.status);
    const cookie = await hitRaw('20 KiB cookie', '/api/conversations', `Cookie: ${'c=1; '.repeat(4000)}\r\n`);
    expect(cookie.status, cookie.raw.slice(0, 1200)).toBeGreaterThanOrEqual(400);
    expect(cookie.status, cookie.raw.slice(0, 1200)).toBeLessThan(500);
    const garbage = await rawExchange(server.port, 'GARBAGE\r\n\r\n');
    seen.push({ what: 'not HTTP', status: garbage.status, body: garbage.body });
    expect(garbage.status).toBe(400);
  });

  it('path traversal in the file and report routes, with every encoding, and links out of the workspace', async () => {
    const escapes = [
      '../conversation.json',
      '../../outside.txt',
      '..%2fconversation.json',
      '..%2F..%2Foutside.txt',
      '%2e%2e/conversation.json',
      '%2e%2e%2f%2e%2e%2foutside.txt',
      '%252e%252e%252fconversation.json',
      '..%5cconversation.json',
      '..\\conversation.json',
      '%2fetc%2fpasswd',
      '/etc/passwd',
      '//etc/passwd',
      'etc/passwd',
      'etc/shadow',
      'link.txt',
      'data.csv%00.txt',
      'data.csv%00',
      '..%c0%afconversation.json',
      '%c0%ae%c0%ae/conversation.json',
      '.%2e/conversation.json',
      'workspace/../../outside.txt',
      '%E2%80%AE..%2Fconversation.json',
      '..;/conversation.json',
      'data.csv/../../conversation.json',
      '%',
      '%zz',
      '%E0%A4%A',
    ];
    for (const e of escapes) {
      const res = await hitRaw(`file ${e}`, `/api/conversations/${id}/files/${e}`);
      expect(res.status, e).toBeGreaterThanOrEqual(400);
      expect(res.status, e).toBeLessThan(500);
    }
    for (const e of ['..%2fsecret.html', '../secret.html', '%2e%2e%2fsecret.html', '..%252fsecret.html']) {
      expect((await hitRaw(`report ${e}`, `/api/runs/r1/report/${e}`)).status, e).toBeGreaterThanOrEqual(400);
      expect((await hitRaw(`run id ${e}`, `/api/runs/${e}/report/report.html`)).status, e).toBeGreaterThanOrEqual(400);
    }
    // The one file that is there is served (the routes work; the refusals above are not a blanket 404).
    expect((await hitRaw('the real file', `/api/conversations/${id}/files/data.csv`)).body).toContain('1,2');
    seen.pop();
  });

  it('unicode, malformed and hostile conversation ids', async () => {
    const ids = [
      '%F0%9F%92%A9',
      '%E2%80%AE',
      '%C3%BF',
      '%C0%AE%C0%AE',
      '%00',
      '..',
      '%2e%2e',
      '.',
      'a'.repeat(5000),
      '%2F',
      'conv-x',
      `${id}%00`,
      `${id}%2f..`,
      '%FF%FE',
      'ü',
      '\u202e',
    ];
    for (const bad of ids) {
      for (const suffix of ['', '/debug', '/events', '/files/data.csv']) {
        const res = await hitRaw(`id ${bad}${suffix}`, Buffer.from(`/api/conversations/${bad}${suffix}`, 'utf8'));
        expect(res.status, `${bad}${suffix}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${bad}${suffix}`).toBeLessThan(500);
      }
    }
  });

  it('seeded random bodies and paths (400 requests)', async () => {
    const random = seededRandom(20261125);
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
    const alphabet = [
      'a',
      '/',
      '.',
      '%',
      '2',
      'e',
      'f',
      '\\',
      '\u00e9',
      '\u{1F4A9}',
      '?',
      '#',
      ';',
      '~',
      '"',
      '<',
      '\u0000',
      ' ',
    ];
    const randomText = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pick(alphabet)).join('');
    for (let i = 0; i < 200; i++) {
      const segment = encodeURIComponent(randomText(24)).replace(/%2F/g, pick(['/', '%2F', '%252F']));
      const target = pick([
        `/api/conversations/${id}/files/..${segment}`,
        `/api/conversations/${segment}x`,
        `/api/runs/${segment}x/report/x.html`,
        `/api/conversations/${id}/files/${segment}.missing`,
      ]);
      const res = await hitRaw(`random path ${target}`, target);
      expect(res.status, target).toBeGreaterThanOrEqual(400);
      expect(res.status, target).toBeLessThan(500);
    }
    for (let i = 0; i < 200; i++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256)));
      const [method, p] = pick([
        ['POST', `/api/conversations/${id}/messages`],
        ['PATCH', `/api/conversations/${id}`],
        ['POST', '/api/session'],
      ] as Array<[string, string]>);
      const res = await hit(`random body ${i}`, p, {
        method,
        headers: {
          'content-type': pick(['application/json', 'application/json; charset=utf-16', 'application/json;;']),
        },
        body: bytes,
      });
      expect(res.status, `${method} ${p} body ${i}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${p} body ${i}`).toBeLessThan(500);
    }
  }, 180_000);

  it('after all of it: every reply was a 4xx with a JSON error, nothing outside the workspace leaked, and the server still works', async () => {
    expect(seen.length).toBeGreaterThan(500);
    for (const r of seen) {
      expect(r.status, r.what).toBeGreaterThanOrEqual(400);
      expect(r.status, r.what).toBeLessThan(500);
      expect(r.body, r.what).toMatch(/"error":"(?:[^"\\]|\\.){8,}"/);
      expect(r.body, r.what).not.toContain(SENTINEL);
      expect(r.body, r.what).not.toMatch(/root:x:0:0|"createdAt"|"turnId"/);
      expect(r.body, r.what).not.toContain(server.token!);
    }
    expect((await rawRequest(`${server.url}/api/health`)).status).toBe(200);
    const file = await rawRequest(`${server.url}/api/conversations/${id}/files/data.csv`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(file.text).toBe(DATA);
  });
});
