import { describe, expect, it } from 'vitest';
import { webRoutes } from '../../server/routes/web';

describe('web route', () => {
  const app = webRoutes();

  it('/ serves the app with an import map of versioned local vendor URLs (no CDN) and revalidates by ETag', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)![1]!) as { imports: Record<string, string> };
    expect(map.imports.preact).toBe('/vendor/preact@11.2.0/dist/preact.mjs');
    expect(Object.values(map.imports).every((u) => u.startsWith('/vendor/'))).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
    const again = await app.request('/', { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('every vendor URL the page names resolves, with a year of caching', async () => {
    const html = await (await app.request('/')).text();
    const urls = [...html.matchAll(/"(\/vendor\/[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(14);
    for (const url of urls) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('serves app files, refuses everything else under node_modules and paths out of web/', async () => {
    expect((await app.request('/app/main.js')).headers.get('content-type')).toContain('javascript');
    expect((await app.request('/vendor/preact@11.2.0/package.json')).status).toBe(404);
    expect((await app.request('/vendor/preact@10.0.0/dist/preact.mjs')).status).toBe(404);
    expect((await app.request('/app/..%2Fpackage.json')).status).toBe(404);
    expect((await app.request('/app/api-types.d.ts')).status).toBe(404);
  });
});
