import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageCsp, webRoutes } from '../../server/routes/web';

describe('web route', () => {
  const app = webRoutes();

  it('/ serves the app with an import map of versioned local vendor URLs (no CDN) and revalidates by ETag', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)![1]) as {
      imports: Record<string, string>;
    };
    expect(map.imports.preact).toBe('/vendor/preact@11.2.0/dist/preact.mjs');
    expect(Object.values(map.imports).every((u) => u.startsWith('/vendor/'))).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
    const again = await app.request('/', { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('every vendor URL the page names resolves, with a year of caching', async () => {
    const html = await (await app.request('/')).text();
    const urls = [...html.matchAll(/"(\/vendor\/[^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(14);
    for (const url of urls) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('/ carries a CSP whose script hash is that of the inline import map; no eval, no inline scripts, no framing', async () => {
    const res = await app.request('/');
    const csp = res.headers.get('content-security-policy')!;
    const html = await res.text();
    const importMap = /<script type="importmap">(.*?)<\/script>/.exec(html)![1];
    const hash = createHash('sha256').update(importMap, 'utf8').digest('base64');
    expect(csp).toBe(
      `default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; ` +
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(csp).toBe(pageCsp(importMap));
    expect(csp).not.toContain('unsafe-eval');
    expect(/script-src[^;]*/.exec(csp)![0]).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    // the import map is the only inline script that runs; the vendor-scripts block is data (type application/json)
    const inline = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]).filter((attrs) => !/\bsrc=/.test(attrs));
    expect(inline).toEqual([' type="importmap"', ' type="application/json" id="vendor-scripts"']);
    expect(
      (await app.request('/', { headers: { 'if-none-match': res.headers.get('etag')! } })).headers.get(
        'content-security-policy',
      ),
    ).toBe(csp);
  });

  it('vega-interpreter (ES module) and the vega-util modules it imports are served through the import map', async () => {
    const html = await (await app.request('/')).text();
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)![1]) as {
      imports: Record<string, string>;
    };
    expect(map.imports['vega-interpreter']).toBe('/vendor/vega-interpreter@2.3.2/build/vega-interpreter.js');
    const interpreter = await app.request(map.imports['vega-interpreter']);
    expect(interpreter.status).toBe(200);
    expect(interpreter.headers.get('content-type')).toContain('javascript');
    const source = await interpreter.text();
    expect(source).toContain('export { expression as expressionInterpreter }');
    // its one bare import resolves through the map, and every module vega-util's index imports is served
    expect([...source.matchAll(/from '([^'.][^']*)'/g)].map((m) => m[1])).toEqual(['vega-util']);
    const utilIndex = map.imports['vega-util'];
    const index = await (await app.request(utilIndex)).text();
    const relative = [...index.matchAll(/from '\.\/([^']+)'/g)].map((m) => m[1]);
    expect(relative.length).toBeGreaterThan(40);
    for (const file of relative)
      expect((await app.request(new URL(file, `http://x${utilIndex}`).pathname)).status, file).toBe(200);
    // the folder allowance is for .js files straight in build/, nothing else of the package
    for (const bad of [
      'build/index.d.ts',
      'build/index.js.map',
      'build/..%2Fpackage.json',
      'build/nope.js',
      'package.json',
      'src/index.ts',
    ]) {
      expect((await app.request(`/vendor/vega-util@2.1.3/${bad}`)).status, bad).toBe(404);
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
