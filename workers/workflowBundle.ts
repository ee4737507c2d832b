import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { writeFileAtomic } from '../lib/runStore/files';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WORKFLOWS_PATH = path.join(REPO, 'workflows/index.ts');
const CACHE_DIR = path.join(REPO, '.state/workflow-bundle');
const NOT_SOURCE = new Set(['node_modules', '.tools', '.state', '.git', 'runs', 'test', 'bench']);

let bundle: Promise<{ code: string }> | undefined;

/**
 * The workflow bundle (webpack + swc: 5–8 s), built once per source version and kept in .state/, so worker starts and
 * restarts after a crash take a fraction of that.
 */
export function workflowBundle(): Promise<{ code: string }> {
  bundle ??= loadOrBuild();
  return bundle;
}

async function loadOrBuild(): Promise<{ code: string }> {
  const file = path.join(CACHE_DIR, `${await sourceHash(REPO)}.js`);
  const cached = await readFile(file, 'utf8').catch(() => undefined); // no bundle cached for this source: build it
  if (cached) return { code: cached };
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  await writeFileAtomic(file, code);
  return { code };
}

/** Hash of every TypeScript source the bundle could include (any change builds a new bundle). */
async function sourceHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await sourceFiles(root))
    hash
      .update(path.relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex').slice(0, 20);
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => !NOT_SOURCE.has(e.name))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((e) =>
        e.isDirectory()
          ? sourceFiles(path.join(dir, e.name))
          : Promise.resolve(e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []),
      ),
  );
  return nested.flat();
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[bundle] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundle] ${message}\n`),
};
