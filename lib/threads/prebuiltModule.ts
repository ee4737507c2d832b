import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { REPO_ROOT } from '../../config/paths';
import { writeFileAtomic, writeJsonAtomic } from '../runStore/files';
import { changedInput, NODE_BUNDLE_OPTIONS, sourceRelativeImportMeta } from '../prebuilt/entryBundle.mjs';

const BUNDLES_DIR = path.join(REPO_ROOT, '.state/thread-bundles');
const manifestSchema = z.object({
  /** The module, relative to the root. */
  source: z.string(),
  bundleSha256: z.string(),
  /** Every file the bundle was built from (relative to the root, node_modules included) and its sha256. */
  inputs: z.record(z.string(), z.string()),
});
type Manifest = z.infer<typeof manifestSchema>;

/** What a worker thread imports for a job: a prebuilt bundle (plain JavaScript) or the TypeScript module via tsx. */
export interface ThreadEntry {
  href: string;
  viaTsx: boolean;
}

export type Freshness = { fresh: true } | { fresh: false; reason: string };

export interface PrebuiltModuleOptions {
  /** Where sources are named from (default: the checkout). */
  root?: string;
  /** Where bundles and their manifests go (default: .state/thread-bundles/ of the checkout). */
  bundlesDir?: string;
  /** Told once per process when the module loads through tsx, and why (default: a line on stderr). */
  warn?: (message: string) => void;
}

/**
 * A TypeScript module that worker threads (threadPool.ts) load from a bundle built ahead of time instead of through
 * tsx: esbuild puts the module and everything it imports, node_modules included, in one ES module. Registering tsx
 * and compiling the imports costs a scoring thread about 0.32 CPU-s; from the bundle it starts in 0.07
 * (bench/thread-start-cpu.ts). The set-up builds the bundles (`sheetbench prebuild`, scripts/setup.d/threads.sh), each
 * beside a manifest of the files it was built from and their sha256. A thread uses the bundle only while every one of
 * those files is unchanged; otherwise it loads the module through tsx, and the process says once why.
 */
export class PrebuiltModule {
  private readonly root: string;
  private readonly bundlesDir: string;
  private readonly warn: (message: string) => void;
  private resolved: Promise<ThreadEntry> | undefined;

  constructor(
    readonly source: URL,
    options: PrebuiltModuleOptions = {},
  ) {
    this.root = options.root ?? REPO_ROOT;
    this.bundlesDir = options.bundlesDir ?? BUNDLES_DIR;
    this.warn = options.warn ?? ((message) => process.stderr.write(`[threads] ${message}\n`));
  }

  /** The module's path relative to the root (e.g. activities/spreadsheetbench/scoreWork.ts). */
  get name(): string {
    return path.relative(this.root, fileURLToPath(this.source));
  }

  get bundlePath(): string {
    return path.join(this.bundlesDir, this.name.replace(/\.[cm]?ts$/, '.mjs'));
  }

  private get manifestPath(): string {
    return `${this.bundlePath}.json`;
  }

  /** What threads import for this module in this process: decided once, on first use. */
  entry(): Promise<ThreadEntry> {
    this.resolved ??= this.freshness().then((f) => {
      if (f.fresh) return { href: pathToFileURL(this.bundlePath).href, viaTsx: false };
      this.warn(
        `${this.name} loads through tsx (about 0.25 CPU-s more per worker thread start): its prebuilt bundle ${f.reason}; ` +
          '`sheetbench prebuild` (run by `npm run setup`) builds it',
      );
      return { href: this.source.href, viaTsx: true };
    });
    return this.resolved;
  }

  /** Is the bundle there, whole, and built from the files as they are now? */
  async freshness(): Promise<Freshness> {
    const manifest = await this.readManifest();
    if (typeof manifest === 'string') return { fresh: false, reason: manifest };
    const bundle = await readFile(this.bundlePath).catch(() => undefined); // checked just below
    if (!bundle) return { fresh: false, reason: `is missing (${this.bundlePath})` };
    if (sha256(bundle) !== manifest.bundleSha256)
      return { fresh: false, reason: `is not the file that was built (${this.bundlePath})` };
    const changed = changedInput(this.root, manifest.inputs);
    if (changed) return { fresh: false, reason: `is stale: ${changed}` };
    return { fresh: true };
  }

  /** Builds the bundle and its manifest (the manifest last: a bundle without its manifest is never used). */
  async build(): Promise<void> {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(this.source)],
      absWorkingDir: this.root,
      outfile: this.bundlePath,
      ...NODE_BUNDLE_OPTIONS,
      plugins: [sourceRelativeImportMeta(esbuild, path.dirname(this.bundlePath))],
    });
    const inputs = await this.hashInputs(Object.keys(result.metafile.inputs));
    const bundle = Buffer.from(result.outputFiles[0].contents);
    await writeFileAtomic(this.bundlePath, bundle);
    const manifest: Manifest = { source: this.name, bundleSha256: sha256(bundle), inputs };
    await writeJsonAtomic(this.manifestPath, manifest);
  }

  /** Builds the bundle unless the one there is fresh; says which. */
  async buildIfStale(): Promise<{ built: boolean; reason?: string }> {
    const f = await this.freshness();
    if (f.fresh) return { built: false };
    await this.build();
    return { built: true, reason: f.reason };
  }

  /** Why there is no usable manifest (a sentence), or the manifest. */
  private async readManifest(): Promise<Manifest | string> {
    const text = await readFile(this.manifestPath, 'utf8').catch(() => undefined); // not built: said below
    if (text === undefined) return `is not built (no ${this.manifestPath})`;
    try {
      return manifestSchema.parse(JSON.parse(text));
    } catch (err) {
      return `has an unreadable manifest (${this.manifestPath}: ${(err as Error).message.split('\n')[0]})`;
    }
  }

  /**
   * sha256 of each input. The checkout's modules read their own source's `import.meta` from the bundle too
   * (sourceRelativeImportMeta); a package that reads it would read the bundle's instead of its own (its URL, its
   * folder): such a module cannot be bundled, and the build says which file stops it.
   */
  private async hashInputs(files: string[]): Promise<Record<string, string>> {
    const inputs: Record<string, string> = {};
    for (const file of files) {
      const bytes = await readFile(path.join(this.root, file));
      if (file.split('/').includes('node_modules') && bytes.includes('import.meta'))
        throw new Error(`${this.name} cannot be prebuilt: ${file} reads import.meta, which a bundle would change`);
      inputs[file] = sha256(bytes);
    }
    return inputs;
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
