import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The browser files the app may load from npm packages, by package and path (nothing else under node_modules is served).
 * ES modules go into the import map; the UMD builds (vega, vega-lite, vega-embed, papaparse) are loaded as classic
 * scripts when first needed.
 * `folder/*.js` allows every .js file straight in that folder: vega-util's ES build is one module per file (imported by
 * vega-interpreter, which has no UMD build).
 */
const VENDOR_FILES: Record<string, string[]> = {
  preact: ['dist/preact.mjs', 'hooks/dist/hooks.mjs'],
  htm: ['dist/htm.module.js', 'preact/index.module.js'],
  marked: ['lib/marked.esm.js'],
  dompurify: ['dist/purify.es.mjs'],
  '@highlightjs/cdn-assets': [
    'es/core.min.js',
    'es/languages/python.min.js',
    'es/languages/javascript.min.js',
    'es/languages/json.min.js',
    'styles/github.min.css',
  ],
  papaparse: ['papaparse.min.js'],
  vega: ['build/vega.min.js'],
  'vega-lite': ['build/vega-lite.min.js'],
  'vega-embed': ['build/vega-embed.min.js'],
  'vega-interpreter': ['build/vega-interpreter.js'],
  'vega-util': ['build/*.js'],
};

const IMPORTS: Record<string, [string, string]> = {
  preact: ['preact', 'dist/preact.mjs'],
  'preact/hooks': ['preact', 'hooks/dist/hooks.mjs'],
  htm: ['htm', 'dist/htm.module.js'],
  'htm/preact': ['htm', 'preact/index.module.js'],
  marked: ['marked', 'lib/marked.esm.js'],
  dompurify: ['dompurify', 'dist/purify.es.mjs'],
  // highlight.js's own module names (its npm package types them for `tsc -p web`), served from its browser build.
  'highlight.js/lib/core': ['@highlightjs/cdn-assets', 'es/core.min.js'],
  'highlight.js/lib/languages/python': ['@highlightjs/cdn-assets', 'es/languages/python.min.js'],
  'highlight.js/lib/languages/javascript': ['@highlightjs/cdn-assets', 'es/languages/javascript.min.js'],
  'highlight.js/lib/languages/json': ['@highlightjs/cdn-assets', 'es/languages/json.min.js'],
  'vega-interpreter': ['vega-interpreter', 'build/vega-interpreter.js'],
  'vega-util': ['vega-util', 'build/index.js'],
};

/** Scripts loaded on demand (not modules): name → vendor URL. Read by web/lib/scripts.js from the page's JSON block. */
const SCRIPTS: Record<string, [string, string]> = {
  papaparse: ['papaparse', 'papaparse.min.js'],
  vega: ['vega', 'build/vega.min.js'],
  'vega-lite': ['vega-lite', 'build/vega-lite.min.js'],
  'vega-embed': ['vega-embed', 'build/vega-embed.min.js'],
  'highlight.css': ['@highlightjs/cdn-assets', 'styles/github.min.css'],
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The page's Content-Security-Policy. Scripts only from this origin, plus the one inline script, the import map, allowed
 * by the hash of its exact text (the JSON block of vendor scripts is data, never run, so needs nothing); no 'unsafe-eval',
 * so chart specs (agent-written, untrusted) must be run by Vega's expression interpreter (web/viz/Visualization.js),
 * never compiled with Function. Styles only from files too: vega-embed's and vega-tooltip's CSS is in web/app.css
 * instead of their inserted <style>, and style="" attributes in the agent's Markdown HTML are ignored.
 */
export function pageCsp(importMapText: string): string {
  const hash = createHash('sha256').update(importMapText, 'utf8').digest('base64');
  return [
    "default-src 'self'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface WebRoutesOptions {
  /** The app's folder (default: web/ of the repository). */
  webDir?: string;
  /** Where the npm packages are (default: node_modules/ of the repository). */
  nodeModulesDir?: string;
}

/**
 * `/` serves the app; `/app/*` its own files (revalidated on every load by ETag); `/vendor/<pkg>@<version>/<file>` the
 * library files from node_modules (versioned URLs, cached for a year). No CDN: the page works offline.
 */
export function webRoutes(opts: WebRoutesOptions = {}): Hono {
  const webDir = path.resolve(opts.webDir ?? path.join(ROOT, 'web'));
  const modules = path.resolve(opts.nodeModulesDir ?? path.join(ROOT, 'node_modules'));
  const versions = packageVersions(modules);
  const vendorUrl = ([pkg, file]: [string, string]) => `/vendor/${pkg}@${versions[pkg]}/${file}`;
  const app = new Hono();

  app.get('/', async (c) => {
    const template = await readFile(path.join(webDir, 'index.html'), 'utf8');
    const importMap = {
      imports: Object.fromEntries(Object.entries(IMPORTS).map(([name, ref]) => [name, vendorUrl(ref)])),
    };
    const scripts = Object.fromEntries(Object.entries(SCRIPTS).map(([name, ref]) => [name, vendorUrl(ref)]));
    const importMapText = JSON.stringify(importMap);
    // Replacement functions: a '$' in the JSON goes in as is (the CSP hash is of this exact text).
    const html = template
      .replace('<!--importmap-->', () => `<script type="importmap">${importMapText}</script>`)
      .replace(
        '<!--scripts-->',
        () => `<script type="application/json" id="vendor-scripts">${JSON.stringify(scripts)}</script>`,
      );
    return sendRevalidated(c, Buffer.from(html), TYPES['.html'], {
      'content-security-policy': pageCsp(importMapText),
    });
  });

  app.get('/app/*', async (c) => {
    const rel = decodeURIComponent(c.req.path.slice('/app/'.length));
    const file = path.resolve(webDir, rel);
    if (!file.startsWith(webDir + path.sep) || !TYPES[path.extname(file)])
      return c.json({ error: `no app file ${rel}` }, 404);
    const body = await readFile(file).catch(() => undefined); // no such file: 404
    if (!body) return c.json({ error: `no app file ${rel}` }, 404);
    return sendRevalidated(c, body, TYPES[path.extname(file)]);
  });

  app.get('/vendor/*', async (c) => {
    const rest = c.req.path.slice('/vendor/'.length);
    const match = /^((?:@[^/]+\/)?[^/@]+)@([^/]+)\/(.+)$/.exec(rest);
    const [, pkg, version, file] = match ?? [];
    if (!pkg || !file || !isVendorFile(pkg, file)) return c.json({ error: `no vendor file ${rest}` }, 404);
    if (version !== versions[pkg])
      return c.json({ error: `${pkg} is at version ${versions[pkg]}, not ${version}` }, 404);
    const body = await readFile(path.join(modules, pkg, file)).catch(() => undefined); // no such file: 404
    if (!body) return c.json({ error: `no vendor file ${rest}` }, 404);
    return c.body(body, 200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'public, max-age=31536000, immutable',
    });
  });

  return app;
}

/** Listed, or a plain `name.js` straight in a listed `folder/*.js` (no subfolder, no `..`). */
function isVendorFile(pkg: string, file: string): boolean {
  return (VENDOR_FILES[pkg] ?? []).some((allowed) => {
    if (!allowed.endsWith('/*.js')) return allowed === file;
    const folder = allowed.slice(0, -'*.js'.length);
    return file.startsWith(folder) && /^\w[\w-]*\.js$/.test(file.slice(folder.length));
  });
}

function packageVersions(modules: string): Record<string, string> {
  return Object.fromEntries(
    Object.keys(VENDOR_FILES).map((pkg) => {
      try {
        return [
          pkg,
          (JSON.parse(readFileSync(path.join(modules, pkg, 'package.json'), 'utf8')) as { version: string }).version,
        ];
      } catch {
        throw new Error(`web app: npm package ${pkg} is not installed in ${modules} (run npm ci)`);
      }
    }),
  );
}

/** no-cache + ETag: the browser revalidates and gets 304 when the file did not change. */
function sendRevalidated(c: Context, body: Buffer, type: string, extra: Record<string, string> = {}): Response {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const headers = { 'content-type': type, 'cache-control': 'no-cache', etag, ...extra };
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(new Uint8Array(body), 200, headers);
}
