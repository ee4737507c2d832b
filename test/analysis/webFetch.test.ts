/**
 * web_fetch against local HTTP servers on 127.0.0.1 (free ports). Happy paths use a config that allows private
 * addresses (or one exact address); refusals use the default policy and a stub resolver that maps made-up public-looking
 * names to loopback/private addresses. A refused fetch must never reach the server.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, type ToolContext } from '../../analysis/tools/index';
import type { WebFetchResult } from '../../analysis/tools/webFetch';
import { forbiddenAddressReason, type HostLookup } from '../../analysis/web/addressPolicy';
import { makeWorkspace, testAnalysisConfig, toolContext } from './helpers';

const MB = 1024 * 1024;

describe('web_fetch', () => {
  const env = makeWorkspace();
  let server: Server;
  let port = 0;
  const hits: Array<{ url: string; host: string }> = [];
  const lookups: string[] = [];
  const stubLookup: HostLookup = async (hostname) => {
    lookups.push(hostname);
    const table: Record<string, string[]> = {
      'data.public.test': ['127.0.0.1'],
      'rate.public.test': ['127.0.0.1'],
      'internal.public.test': ['10.1.2.3'],
      'mixed.public.test': ['93.184.216.34', '127.0.0.1'],
      'mapped.public.test': ['::ffff:127.0.0.1'],
    };
    const found = table[hostname];
    if (!found) throw new Error(`ENOTFOUND ${hostname}`);
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push({ url: req.url ?? '', host: req.headers.host ?? '' });
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/data.json')
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify([
            { city: 'Oslo', t: 4 },
            { city: 'Rome', t: 18 },
          ]),
        );
      if (url.pathname === '/page.html')
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<html><head><script>var x=1</script></head><body><h1>Report</h1><p>Total <b>42</b> units.</p></body></html>',
          );
      if (url.pathname === '/sales.csv')
        return res.writeHead(200, { 'content-type': 'text/csv' }).end('region,sales\nnorth,10\n');
      if (url.pathname === '/redirect')
        return res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      if (url.pathname === '/stream-big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(256 * 1024, 120);
        let sent = 0;
        const pump = () => {
          while (sent < 3 * MB && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      if (url.pathname === '/declared-big') return res.writeHead(200, { 'content-length': String(5 * MB) }).end();
      if (url.pathname === '/slow') return; // never answers
      return res.writeHead(404).end('no such thing');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
    env.cleanup();
  });

  const local = (fetch: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): ToolContext =>
    toolContext(
      env.workspaceDir,
      testAnalysisConfig({
        fetch: { allowPrivateAddresses: true, perHostPerMinute: 1000, timeoutMs: 5000, ...fetch },
        ...rest,
      }),
      { lookupHost: stubLookup },
    );
  const strict = (fetch: Record<string, unknown> = {}): ToolContext =>
    toolContext(env.workspaceDir, testAnalysisConfig({ fetch: { perHostPerMinute: 1000, ...fetch } }), {
      lookupHost: stubLookup,
    });
  const fetchOk = async (ctx: ToolContext, args: Record<string, unknown>) => {
    const out = await runTool('web_fetch', args, ctx);
    expect(out.ok, out.error).toBe(true);
    return out.result as WebFetchResult;
  };
  const refused = async (ctx: ToolContext, args: Record<string, unknown>, message: RegExp) => {
    const before = hits.length;
    const out = await runTool('web_fetch', args, ctx);
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(message);
    return { reached: hits.length - before };
  };

  it('returns JSON, readable HTML text and raw text', async () => {
    const json = await fetchOk(local(), { url: `http://127.0.0.1:${port}/data.json`, type: 'json' });
    expect(json).toMatchObject({
      status: 200,
      content: [
        { city: 'Oslo', t: 4 },
        { city: 'Rome', t: 18 },
      ],
    });
    const html = await fetchOk(local(), { url: `http://127.0.0.1:${port}/page.html`, type: 'html' });
    expect(html.content).toMatch(/REPORT/i);
    expect(html.content).toMatch(/Total 42 units\./);
    expect(html.content).not.toMatch(/<|var x/);
    const text = await fetchOk(local(), { url: `http://127.0.0.1:${port}/sales.csv` });
    expect(text.content).toBe('region,sales\nnorth,10\n');
  });

  it('saves a file into the workspace (default name under downloads/, or the given name) and follows redirects', async () => {
    const saved = await fetchOk(local(), { url: `http://127.0.0.1:${port}/sales.csv`, type: 'file' });
    expect(saved.file).toEqual({ filename: 'sales.csv', path: 'downloads/sales.csv', type: 'csv', size: 22 });
    expect(readFileSync(join(env.workspaceDir, 'downloads/sales.csv'), 'utf8')).toBe('region,sales\nnorth,10\n');
    if (process.getuid?.() === 0) expect(statSync(join(env.workspaceDir, 'downloads/sales.csv')).uid).not.toBe(0);
    const redirected = await fetchOk(local(), {
      url: `http://127.0.0.1:${port}/redirect?to=/data.json`,
      type: 'file',
      filename: 'in/cities.json',
    });
    expect(redirected.finalUrl).toBe(`http://127.0.0.1:${port}/data.json`);
    expect(JSON.parse(readFileSync(join(env.workspaceDir, 'in/cities.json'), 'utf8'))).toHaveLength(2);
    await refused(
      local(),
      { url: `http://127.0.0.1:${port}/sales.csv`, type: 'file', filename: '../escape.csv' },
      /"\.\." is refused/,
    );
  });

  it('refuses loopback, private, link-local and IPv4-mapped addresses by default, without connecting', async () => {
    const cases: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${port}/data.json`, /127\.0\.0\.1, a loopback address/],
      [`http://0x7f.1:${port}/data.json`, /loopback/],
      [`http://[::1]:${port}/data.json`, /loopback/],
      [`http://[::ffff:127.0.0.1]:${port}/data.json`, /loopback .*inside IPv6/],
      [`http://10.0.0.8/`, /private/],
      [`http://192.168.1.1/`, /private/],
      [`http://169.254.169.254/latest/meta-data/`, /link-local/],
      [`http://[fe80::1]/`, /link-local/],
      [`http://data.public.test:${port}/data.json`, /resolves to 127\.0\.0\.1, a loopback/],
      [`http://mapped.public.test:${port}/data.json`, /loopback .*inside IPv6/],
      [`http://mixed.public.test:${port}/data.json`, /127\.0\.0\.1, a loopback/],
      ['file:///etc/passwd', /only http and https/],
      ['ftp://example.com/x', /only http and https/],
    ];
    for (const [url, message] of cases) expect((await refused(strict(), { url }, message)).reached, url).toBe(0);
  });

  it('vets every redirect hop: a public-looking URL that redirects to loopback or private addresses is refused', async () => {
    const trusted = () => strict({ allowAddresses: ['127.0.0.1'] });
    lookups.length = 0;
    const ok = await fetchOk(trusted(), { url: `http://data.public.test:${port}/data.json`, type: 'json' });
    expect(ok.status).toBe(200);
    expect(hits.at(-1)?.host).toBe(`data.public.test:${port}`); // connected to the vetted IP, Host header kept
    expect(lookups).toEqual(['data.public.test']); // resolved once: the connection reuses the vetted address
    const hop = (to: string) => `http://data.public.test:${port}/redirect?to=${encodeURIComponent(to)}`;
    for (const [to, message] of [
      [`http://127.0.0.2:${port}/data.json`, /127\.0\.0\.2, a loopback/],
      [`http://localhost:${port}/data.json`, /ENOTFOUND localhost|loopback/],
      [`http://internal.public.test:${port}/`, /10\.1\.2\.3, a private/],
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      [`http://[::ffff:7f00:2]:${port}/`, /inside IPv6/],
    ] as Array<[string, RegExp]>) {
      const before = hits.length;
      const out = await runTool('web_fetch', { url: hop(to) }, trusted());
      expect(out.ok, to).toBe(false);
      expect(out.error).toMatch(message);
      expect(hits.slice(before).map((h) => h.url)).toEqual([`/redirect?to=${encodeURIComponent(to)}`]); // only the first hop was made
    }
  });

  it('caps downloads (declared or streamed) and refuses what the workspace has no room for', async () => {
    const capped = local({}, { downloadMaxBytes: 1 * MB });
    await refused(
      capped,
      { url: `http://127.0.0.1:${port}/stream-big`, type: 'file', filename: 'big.bin' },
      /sent more than the 1\.0 MB download limit/,
    );
    await refused(
      capped,
      { url: `http://127.0.0.1:${port}/declared-big`, type: 'text' },
      /over the 1\.0 MB download limit/,
    );
    await refused(
      local({}, { workspaceMaxBytes: 2 * MB }),
      { url: `http://127.0.0.1:${port}/stream-big`, type: 'file' },
      /left in the workspace \(limit 2\.0 MB/,
    );
    expect(() => statSync(join(env.workspaceDir, 'big.bin'))).toThrow();
  });

  it('times out, rate-limits per host and reports HTTP errors as messages', async () => {
    await refused(local({ timeoutMs: 300 }), { url: `http://127.0.0.1:${port}/slow` }, /timed out/);
    const limited = () => strict({ allowAddresses: ['127.0.0.1'], perHostPerMinute: 2 });
    await fetchOk(limited(), { url: `http://rate.public.test:${port}/data.json` });
    await fetchOk(limited(), { url: `http://rate.public.test:${port}/data.json` });
    const third = await refused(
      limited(),
      { url: `http://rate.public.test:${port}/data.json` },
      /rate limit: 2 requests per minute to rate\.public\.test/,
    );
    expect(third.reached).toBe(0);
    await refused(local(), { url: `http://127.0.0.1:${port}/missing` }, /answered HTTP 404: no such thing/);
    await refused(local(), { url: `http://127.0.0.1:${port}/page.html`, type: 'json' }, /did not return valid JSON/);
    expect(process.kill(process.pid, 0)).toBe(true);
  });

  it('classifies addresses (IPv4, IPv6, embedded IPv4)', () => {
    const forbidden = [
      '0.0.0.0',
      '10.255.0.1',
      '100.64.0.1',
      '127.1.2.3',
      '169.254.1.1',
      '172.31.255.255',
      '192.168.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'fc00::1',
      'fd12::1',
      'fe80::1%eth0',
      'ff02::1',
    ];
    const allowed = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'];
    for (const a of forbidden) expect(forbiddenAddressReason(a), a).not.toBeNull();
    for (const a of allowed) expect(forbiddenAddressReason(a), a).toBeNull();
  });
});
