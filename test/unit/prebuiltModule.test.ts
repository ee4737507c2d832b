/**
 * Worker threads load a PrebuiltModule from the bundle the set-up builds, without tsx, while every file it was built
 * from is unchanged; otherwise through tsx, saying once why. The scoring module scores the same through its bundle.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../config/schema';
import { REPO_ROOT } from '../../config/paths';
import { createRun, planRun } from '../../client/createRun';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { cellDiffsPath } from '../../benchmarks/spreadsheetbench/layout';
import { SCORE_WORK } from '../../activities/spreadsheetbench/score';
import { PREBUILT_THREAD_MODULES } from '../../cli/commands/prebuild';
import { PrebuiltModule } from '../../lib/threads/prebuiltModule';
import { ThreadPool } from '../../lib/threads/threadPool';

const JOBS = new URL('../helpers/threadJobs.ts', import.meta.url);
const TYPESCRIPT_ONLY = fileURLToPath(new URL('../helpers/typeScriptOnly.ts', import.meta.url));
const SAMPLE = path.join(REPO_ROOT, 'data/sample');

const temp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

describe('PrebuiltModule: worker threads load a module from its prebuilt bundle', () => {
  const pool = new ThreadPool(1);
  afterAll(() => pool.close());

  it('a fresh bundle is what the thread runs, and that thread cannot load TypeScript: it never loaded tsx', async () => {
    const warn = vi.fn();
    const jobs = new PrebuiltModule(JOBS, { bundlesDir: temp('sb-bundles-'), warn });
    await jobs.build();
    expect(await jobs.freshness()).toEqual({ fresh: true });
    expect(await pool.run<string>(jobs, 'whereDefined', null)).toContain(pathToFileURL(jobs.bundlePath).href);
    expect(await pool.run(jobs, 'loadsTypeScript', TYPESCRIPT_ONLY)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
    // The same job given as the TypeScript module, on a thread of its own (a thread keeps a failed import's outcome).
    const tsxPool = new ThreadPool(1);
    expect(await tsxPool.run(JOBS, 'loadsTypeScript', TYPESCRIPT_ONLY)).toBe(true);
    await tsxPool.close();
  });

  it('without a fresh bundle the module loads through tsx, and the process says once why', async () => {
    const root = temp('sb-prebuilt-src-');
    writeFileSync(path.join(root, 'package.json'), '{"type": "module"}\n'); // ES modules, as in the checkout
    writeFileSync(path.join(root, 'helper.ts'), 'export const tag = (s: string): string => `helper:${s}`;\n');
    writeFileSync(
      path.join(root, 'jobs.ts'),
      "import { tag } from './helper';\nexport const run = (s: string) => tag(s);\n",
    );
    const bundlesDir = temp('sb-bundles-');
    const module = (warn = vi.fn()) => ({
      warn,
      jobs: new PrebuiltModule(pathToFileURL(path.join(root, 'jobs.ts')), { root, bundlesDir, warn }),
    });

    const unbuilt = module();
    expect(await unbuilt.jobs.freshness()).toMatchObject({
      fresh: false,
      reason: expect.stringMatching(/^is not built/),
    });
    expect(await pool.run(unbuilt.jobs, 'run', 'a')).toBe('helper:a');
    expect(await pool.run(unbuilt.jobs, 'run', 'b')).toBe('helper:b');
    expect(unbuilt.warn).toHaveBeenCalledTimes(1);
    expect(unbuilt.warn.mock.calls[0][0]).toMatch(
      /^jobs\.ts loads through tsx .*its prebuilt bundle is not built .*`sheetbench prebuild`/,
    );

    await unbuilt.jobs.build();
    expect(await unbuilt.jobs.freshness()).toEqual({ fresh: true });
    expect(await unbuilt.jobs.buildIfStale()).toEqual({ built: false });

    writeFileSync(path.join(root, 'helper.ts'), 'export const tag = (s: string): string => `changed:${s}`;\n');
    const stale = module();
    expect(await stale.jobs.freshness()).toEqual({
      fresh: false,
      reason: 'is stale: helper.ts changed since it was built',
    });
    const laterProcess = new ThreadPool(1); // a thread keeps the modules it imported: a process started after the change
    expect(await laterProcess.run(stale.jobs, 'run', 'c')).toBe('changed:c'); // the source as it is, not the old bundle
    await laterProcess.close();
    expect(stale.warn).toHaveBeenCalledTimes(1);

    expect(await stale.jobs.buildIfStale()).toEqual({
      built: true,
      reason: 'is stale: helper.ts changed since it was built',
    });
    writeFileSync(stale.jobs.bundlePath, readFileSync(stale.jobs.bundlePath, 'utf8').replace('changed:', 'tampered:'));
    expect(await module().jobs.freshness()).toMatchObject({
      fresh: false,
      reason: expect.stringMatching(/^is not the file that was built/),
    });

    await stale.jobs.build();
    rmSync(path.join(root, 'helper.ts'));
    expect(await module().jobs.freshness()).toEqual({
      fresh: false,
      reason: 'is stale: helper.ts, one of its sources, is gone',
    });

    writeFileSync(`${stale.jobs.bundlePath}.json`, '{"source": 1');
    expect(await module().jobs.freshness()).toMatchObject({
      fresh: false,
      reason: expect.stringMatching(/^has an unreadable manifest/),
    });
  });

  it("the checkout's modules read their own source's import.meta from the bundle; a package that reads it is not bundled", async () => {
    const root = temp('sb-prebuilt-meta-');
    writeFileSync(path.join(root, 'package.json'), '{"type": "module"}\n');
    writeFileSync(path.join(root, 'where.ts'), 'export const here = import.meta.url;\n');
    writeFileSync(path.join(root, 'jobs.ts'), "import { here } from './where';\nexport const run = () => here;\n");
    const jobs = new PrebuiltModule(pathToFileURL(path.join(root, 'jobs.ts')), {
      root,
      bundlesDir: temp('sb-bundles-'),
    });
    await jobs.build();
    expect(await jobs.freshness()).toEqual({ fresh: true });
    const bundled = await import(pathToFileURL(jobs.bundlePath).href);
    expect(bundled.run()).toBe(pathToFileURL(path.join(root, 'where.ts')).href);

    mkdirSync(path.join(root, 'node_modules/meta-pkg'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules/meta-pkg/package.json'), '{"type": "module", "main": "index.js"}\n');
    writeFileSync(path.join(root, 'node_modules/meta-pkg/index.js'), 'export const here = import.meta.url;\n');
    writeFileSync(path.join(root, 'jobs.ts'), "import { here } from 'meta-pkg';\nexport const run = () => here;\n");
    await expect(jobs.build()).rejects.toThrow(
      'jobs.ts cannot be prebuilt: node_modules/meta-pkg/index.js reads import.meta',
    );
    expect(await jobs.freshness()).toMatchObject({
      fresh: false,
      reason: 'is stale: jobs.ts changed since it was built',
    });
  });

  it('the set-up prebuilds every PrebuiltModule of the source tree (`sheetbench prebuild` lists them all)', () => {
    const declared = sourceFiles(REPO_ROOT).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/new PrebuiltModule\(\s*new URL\('([^']+)', import\.meta\.url\)/g)].map(
        (m) => path.relative(REPO_ROOT, path.resolve(path.dirname(file), m[1])),
      ),
    );
    expect(declared).toContain('activities/spreadsheetbench/scoreWork.ts');
    expect(PREBUILT_THREAD_MODULES.map((m) => m.name).sort()).toEqual(declared.sort());
  });
});

describe('the scoring module through its prebuilt bundle', () => {
  const bundled = new PrebuiltModule(SCORE_WORK.source, { bundlesDir: temp('sb-bundles-') });
  const viaBundle = new ThreadPool(1);
  const viaTsx = new ThreadPool(1);
  let runDir: string;

  beforeAll(async () => {
    vi.stubEnv('XDG_CACHE_HOME', temp('sb-prebuilt-cache-')); // the floor computed here, not read from the user's cache
    runDir = temp('sb-prebuilt-run-');
    const config = configSchema.parse({ llm: { provider: 'openai', baseUrl: 'http://127.0.0.1:1', model: 'm' } });
    await createRun(config, await planRun({ datasetDir: SAMPLE, agent: 'single' }), { runDir, runId: 'prebuilt' });
    const run = await sheetRun(runDir);
    // Test cases 1 and 2 answered right, 3 left as its input: verdicts of both kinds, cell diffs for the failed one.
    mkdirSync(path.dirname(run.official.outputPath('1001', 1)), { recursive: true });
    for (const n of [1, 2, 3]) {
      const from = path.join(SAMPLE, 'spreadsheet/1001', `${n}_1001_${n === 3 ? 'input' : 'answer'}.xlsx`);
      copyFileSync(from, run.official.outputPath('1001', n));
    }
    await bundled.build();
  });
  afterAll(async () => {
    await Promise.all([viaBundle.close(), viaTsx.close()]);
    vi.unstubAllEnvs();
  });

  it('gives the same verdicts and cell diffs as the TypeScript module through tsx', async () => {
    const input = { runDir, taskId: '1001' };
    const fromBundle = await viaBundle.run(bundled, 'scoreAndRecord', input);
    const diffsFromBundle = readFileSync(cellDiffsPath(runDir, '1001'), 'utf8');
    rmSync(cellDiffsPath(runDir, '1001'));
    const fromTsx = await viaTsx.run(SCORE_WORK.source, 'scoreAndRecord', input);
    expect(fromBundle).toEqual(fromTsx);
    expect(fromBundle).toMatchObject({ testCaseResults: [1, 1, 0] });
    expect(JSON.parse(diffsFromBundle)).toEqual(JSON.parse(readFileSync(cellDiffsPath(runDir, '1001'), 'utf8')));
    expect(await viaBundle.run(bundled, 'scoreAndRecord', input)).toEqual(fromTsx); // and again, on the warm thread
  });
});

/** The checkout's TypeScript sources outside the tests (what the product declares). */
function sourceFiles(dir: string): string[] {
  const skip = new Set(['node_modules', '.tools', '.state', '.git', 'runs', 'test']);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !skip.has(e.name))
    .flatMap((e) =>
      e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}
