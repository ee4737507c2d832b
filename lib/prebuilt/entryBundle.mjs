// @ts-check
// A TypeScript entry point (the CLI, a standalone worker) run from a bundle esbuild built ahead of time instead of
// through tsx. Through tsx, `sheetbench run --help` costs 2.0 CPU-s before the command does anything (Node's loader
// on the main thread, tsx's resolve and load hooks on its own thread); from the bundle, 0.8. Plain JavaScript, so that
// the launcher (bin/entry.mjs) needs neither tsx nor a compile step to decide.
//
// The bundle holds the repository's own modules (code-split, so each command still loads only what it needs); the
// packages stay in node_modules and load as they do under tsx. Bundles live in .state/prebuilt/<entry>/<inputs hash>/,
// beside current.json: the sha256 of every source file the bundle was built from. A bundle runs only while every one of
// those files is unchanged; otherwise the launcher builds a fresh one first (about half a second, less CPU than one
// start through tsx), and when it cannot, runs the entry through tsx.
import { Buffer } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Bundles other than the current one are removed only past this age and beyond the newest few (a process started
 * from one may still import its chunks). */
const KEEP_OLD_MS = 60 * 60 * 1000;
const KEEP_OLD_COUNT = 4;
/**
 * esbuild's options for a bundle Node runs as an ES module, here and for the thread bundles
 * (lib/threads/prebuiltModule.ts). esbuild's ES module output has no `require`: a bundled CommonJS package that calls
 * it for Node's built-ins gets one (the banner). Names read as in the source (`keepNames`: a class's `name`).
 */
export const NODE_BUNDLE_OPTIONS = /** @type {const} */ ({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  keepNames: true,
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
  },
  metafile: true,
  write: false,
  logLevel: 'silent',
});

/**
 * Where an entry's bundles live, e.g. .state/prebuilt/cli-main for cli/main.ts.
 * @param {string} entry the entry point, relative to the root
 * @param {string} root
 */
export function bundleHome(entry, root = REPO_ROOT) {
  return path.join(root, '.state/prebuilt', entry.replace(/\.[cm]?ts$/, '').replaceAll('/', '-'));
}

/**
 * The first of `inputs` (paths relative to `root`, each with its sha256) that is gone or changed, or undefined.
 * @param {string} root
 * @param {Record<string, string>} inputs
 * @returns {string | undefined} why the files are not the ones named
 */
export function changedInput(root, inputs) {
  for (const [file, hash] of Object.entries(inputs)) {
    let bytes;
    try {
      bytes = readFileSync(path.join(root, file));
    } catch {
      return `${file}, one of its sources, is gone`;
    }
    if (sha256(bytes) !== hash) return `${file} changed since it was built`;
  }
  return undefined;
}

/**
 * The entry's bundle file if one was built from the sources as they are now.
 * @param {string} entry
 * @param {string} root
 * @returns {{ file: string } | { stale: string }}
 */
export function freshBundle(entry, root = REPO_ROOT) {
  const home = bundleHome(entry, root);
  let current;
  try {
    current = JSON.parse(readFileSync(path.join(home, 'current.json'), 'utf8'));
  } catch {
    return { stale: `not built (no ${path.join(home, 'current.json')})` };
  }
  if (typeof current?.file !== 'string' || typeof current?.inputs !== 'object' || current.inputs === null)
    return { stale: `unreadable ${path.join(home, 'current.json')}` };
  const changed = changedInput(root, current.inputs);
  return changed ? { stale: changed } : { file: path.join(home, current.file) };
}

/**
 * Builds the entry's bundle into a folder named by its inputs' hash and makes it current; its entry file.
 * Processes building at once each write their own folder and rename it into place: the first wins, the rest agree.
 * @param {string} entry
 * @param {string} root
 * @returns {Promise<string>}
 */
export async function buildBundle(entry, root = REPO_ROOT) {
  const esbuild = await import('esbuild');
  const home = bundleHome(entry, root);
  // Built into a scratch folder beside the final one (same depth: the source-relative paths hold for both).
  const scratch = path.join(home, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  /** @type {Map<string, string>} */
  const loaded = new Map();
  const result = await esbuild.build({
    entryPoints: [path.join(root, entry)],
    absWorkingDir: root,
    outdir: scratch,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    ...NODE_BUNDLE_OPTIONS,
    splitting: true,
    plugins: [packagesAsNodeResolvesThem(), sourceRelativeImportMeta(esbuild, scratch, loaded)],
  });
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs).sort())
    inputs[file] = loaded.get(path.join(root, file)) ?? sha256(await readFile(path.join(root, file))); // JSON: read here
  const name = sha256(Buffer.from(JSON.stringify(inputs))).slice(0, 16);
  for (const out of result.outputFiles) {
    mkdirSync(path.dirname(out.path), { recursive: true });
    writeFileSync(out.path, out.contents);
  }
  placeFolder(scratch, path.join(home, name));
  const file = `${name}/${path.basename(entry).replace(/\.[cm]?ts$/, '.mjs')}`;
  writeAtomic(path.join(home, 'current.json'), JSON.stringify({ entry, file, inputs }, null, 1));
  removeOldBundles(home, name);
  return path.join(home, file);
}

/**
 * Imports the entry: from its bundle, fresh or built now, or through tsx when no bundle can be built (the reason on
 * stderr once).
 * @param {string} entry
 * @param {string} root
 */
export async function importEntry(entry, root = REPO_ROOT) {
  const fresh = freshBundle(entry, root);
  let file = 'file' in fresh ? fresh.file : undefined;
  if (!file) {
    try {
      file = await buildBundle(entry, root);
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      process.stderr.write(`[prebuilt] ${entry} runs through tsx (slower start): no bundle could be built (${why})\n`);
      const { register } = await import('tsx/esm/api');
      register();
      return import(pathToFileURL(path.join(root, entry)).href);
    }
  }
  return import(pathToFileURL(file).href);
}

/**
 * Packages stay external, named so that Node's ES module loader finds them as tsx did: a deep import into a package
 * without an `exports` map (`@temporalio/common/lib/time`) gets the file's extension, which Node requires.
 */
/** @returns {import('esbuild').Plugin} */
function packagesAsNodeResolvesThem() {
  return {
    name: 'packages-as-node-resolves-them',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const parts = args.path.split('/');
        const nameParts = args.path.startsWith('@') ? 2 : 1;
        if (args.path.startsWith('node:') || parts.length <= nameParts) return { path: args.path, external: true };
        const pkg = parts.slice(0, nameParts).join('/');
        const require = createRequire(args.importer);
        let manifest;
        try {
          manifest = require.resolve(`${pkg}/package.json`);
        } catch {
          return { path: args.path, external: true }; // Node says what is missing when the import runs
        }
        if (JSON.parse(readFileSync(manifest, 'utf8')).exports) return { path: args.path, external: true };
        const file = path.relative(path.dirname(manifest), require.resolve(args.path)).split(path.sep).join('/');
        return { path: `${pkg}/${file}`, external: true };
      });
    },
  };
}

/**
 * A module of the checkout that reads `import.meta` (its URL, its folder: to find a Python script or a template beside
 * it) reads its own source file's, as under tsx, not the bundle's: each use is rewritten to the source's URL, relative
 * to the bundle's folder so that the checkout can move. (Used by lib/threads/prebuiltModule.ts too.) Each such source
 * is read once, and its sha256 goes into `loaded` when given: the bytes bundled are the bytes recorded, even if the
 * file is saved again during the build.
 * @param {typeof import('esbuild')} esbuild
 * @param {string} outdir
 * @param {Map<string, string>} [loaded] absolute path → sha256 of what was bundled
 * @returns {import('esbuild').Plugin}
 */
export function sourceRelativeImportMeta(esbuild, outdir, loaded) {
  return {
    name: 'source-relative-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        if (args.path.split(path.sep).includes('node_modules')) return undefined; // a package is bundled as it is
        const bytes = await readFile(args.path);
        loaded?.set(args.path, sha256(bytes));
        const text = bytes.toString('utf8');
        const loader = /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js';
        const resolveDir = path.dirname(args.path);
        if (!text.includes('import.meta')) return { contents: text, loader, resolveDir };
        const { code } = await esbuild.transform(text, {
          loader,
          format: 'esm',
          sourcefile: args.path,
          define: {
            'import.meta.url': '__sourceUrl',
            'import.meta.filename': '__sourceFile',
            'import.meta.dirname': '__sourceDir',
          },
        });
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        const header =
          "import { fileURLToPath as __sourceToPath } from 'node:url';\n" +
          `const __sourceUrl = new URL(${JSON.stringify(relative)}, import.meta.url).href;\n` +
          'const __sourceFile = __sourceToPath(__sourceUrl);\n' +
          "import { dirname as __sourceDirname } from 'node:path';\n" +
          'const __sourceDir = __sourceDirname(__sourceFile);\n';
        return { contents: header + code, loader: 'js', resolveDir };
      });
    },
  };
}

/**
 * Renames the scratch folder to its final name, unless another process put the same bundle there first.
 * @param {string} scratch
 * @param {string} final
 */
function placeFolder(scratch, final) {
  try {
    renameSync(scratch, final);
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    const code = /** @type {NodeJS.ErrnoException} */ (err).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
  }
}

/**
 * @param {string} file
 * @param {string} text
 */
function writeAtomic(file, text) {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/**
 * Removes bundles other than `keep` that are both old and beyond the newest few, and scratch folders left by a crash.
 * @param {string} home
 * @param {string} keep
 */
function removeOldBundles(home, keep) {
  const now = Date.now();
  const others = readdirSync(home, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== keep)
    .map((d) => ({ name: d.name, mtime: statSync(path.join(home, d.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  others.forEach(({ name, mtime }, i) => {
    if (now - mtime > KEEP_OLD_MS && (i >= KEEP_OLD_COUNT || name.startsWith('.build-')))
      rmSync(path.join(home, name), { recursive: true, force: true });
  });
}

/** @param {Buffer} bytes */
function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}
