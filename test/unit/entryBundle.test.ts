/**
 * An entry point (the CLI, the standalone worker) runs from a bundle built from its sources as they are now: built on
 * first use, rebuilt when a source changes, each module still reading its own source's `import.meta`; through tsx,
 * saying why, when no bundle can be built.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config/paths';
import { bundleHome, buildBundle, freshBundle } from '../../lib/prebuilt/entryBundle.mjs';

const ENTRY_BUNDLE = pathToFileURL(path.join(REPO_ROOT, 'lib/prebuilt/entryBundle.mjs')).href;

/** A checkout in small: an entry with a helper module, a deep package import and a lazily imported module. */
function makeRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb entry-'));
  writeFileSync(path.join(root, 'package.json'), '{"type": "module"}\n');
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(
    path.join(root, 'lib/where.ts'),
    'export const where = (): string => import.meta.url;\nexport const folder = (): string => import.meta.dirname;\n' +
      "export const literal = 'import.meta.url';\nexport const version = 1;\n",
  );
  writeFileSync(path.join(root, 'lazy.ts'), "export const report = (): string => 'lazy ' + import.meta.filename;\n");
  writeFileSync(
    path.join(root, 'main.ts'),
    [
      "import { msToNumber } from '@temporalio/common/lib/time'; // a package without an exports map",
      "import { folder, literal, version, where } from './lib/where';",
      "const { report } = await import('./lazy');",
      'const result = {',
      "  where: where(), folder: folder(), literal, version, lazy: report(), ms: msToNumber('2s'),",
      "  argv: process.argv.slice(1), fromBundle: (new Error().stack ?? '').includes('.state/prebuilt'),",
      '};',
      'process.stdout.write(JSON.stringify(result));',
    ].join('\n'),
  );
  return root;
}

/** `importEntry('main.ts')` in a process of its own, as bin/entry.mjs does it. */
function start(root: string): { result: Record<string, unknown>; stderr: string } {
  const script = `import { importEntry } from ${JSON.stringify(ENTRY_BUNDLE)}; const root = process.argv[1]; process.argv[1] = 'main'; await importEntry('main.ts', root);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, root, 'arg'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return { result: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

describe('entry bundles (lib/prebuilt/entryBundle.mjs)', () => {
  let root: string;
  beforeEach(() => {
    root = makeRoot();
  });

  it('the first start builds the bundle and runs from it; each module reads its own source as import.meta', () => {
    expect(freshBundle('main.ts', root)).toEqual({ stale: expect.stringContaining('not built') });
    const { result, stderr } = start(root);
    expect(stderr).toBe('');
    expect(result).toEqual({
      where: pathToFileURL(path.join(root, 'lib/where.ts')).href,
      folder: path.join(root, 'lib'),
      literal: 'import.meta.url', // a string that names import.meta is left as it is
      version: 1,
      lazy: `lazy ${path.join(root, 'lazy.ts')}`,
      ms: 2000,
      argv: ['main', 'arg'],
      fromBundle: true,
    });
    const fresh = freshBundle('main.ts', root);
    expect(fresh).toEqual({ file: expect.stringContaining(bundleHome('main.ts', root)) });
    // Code-split: the lazily imported module is a chunk of its own, loaded only when imported.
    const folder = path.dirname((fresh as { file: string }).file);
    expect(readdirSync(folder).length).toBeGreaterThan(1);
  });

  it('a changed source makes the bundle stale, naming the file, and the next start runs the change', () => {
    start(root);
    const where = path.join(root, 'lib/where.ts');
    writeFileSync(where, readFileSync(where, 'utf8').replace('version = 1', 'version = 2'));
    expect(freshBundle('main.ts', root)).toEqual({ stale: 'lib/where.ts changed since it was built' });
    expect(start(root).result).toMatchObject({ version: 2, fromBundle: true });
    expect(freshBundle('main.ts', root)).toHaveProperty('file');
  });

  it('a source gone is named too', () => {
    start(root);
    rmSync(path.join(root, 'lazy.ts'));
    expect(freshBundle('main.ts', root)).toEqual({ stale: 'lazy.ts, one of its sources, is gone' });
  });

  it('processes that build at once agree on one bundle and leave no scratch folder', async () => {
    const files = await Promise.all([buildBundle('main.ts', root), buildBundle('main.ts', root)]);
    expect(files[0]).toBe(files[1]);
    expect(freshBundle('main.ts', root)).toEqual({ file: files[0] });
    expect(readdirSync(bundleHome('main.ts', root)).filter((n) => n.startsWith('.build-'))).toEqual([]);
  });

  it('when no bundle can be built, the entry runs through tsx and says why', () => {
    writeFileSync(path.join(root, '.state'), 'not a folder\n'); // nowhere to write a bundle
    const { result, stderr } = start(root);
    expect(stderr).toMatch(/^\[prebuilt\] main.ts runs through tsx \(slower start\): no bundle could be built \(/);
    expect(result).toMatchObject({
      version: 1,
      fromBundle: false,
      where: pathToFileURL(path.join(root, 'lib/where.ts')).href,
    });
    expect(existsSync(path.join(root, '.state/prebuilt'))).toBe(false);
  });
});
