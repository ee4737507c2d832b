import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathExists } from '../lib/runStore/files';
import { BenchmarkError } from './benchmark';

const run = promisify(execFile);

/** Where release archives are unpacked, one folder per archive checksum (reused by later runs). */
export const DEFAULT_DATASET_CACHE = '.state/datasets';

export function isArchive(file: string): boolean {
  return /\.(tar\.gz|tgz)$/i.test(file);
}

/**
 * `--dataset` may be a SpreadsheetBench release archive (`.tar.gz`, as the official repository ships them): it is
 * unpacked once into `<cache>/<sha256>/` and the folder holding `dataset.json` + `spreadsheet/` is used.
 */
export async function datasetFolderOf(datasetPath: string, cacheDir = DEFAULT_DATASET_CACHE): Promise<string> {
  if (!isArchive(datasetPath)) return datasetPath;
  if (
    !(await stat(datasetPath).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    throw new BenchmarkError(`archive ${datasetPath} does not exist`);
  const dest = path.resolve(cacheDir, await sha256Of(datasetPath));
  if (!(await pathExists(path.join(dest, '.unpacked')))) await unpack(datasetPath, dest);
  const folder = await releaseFolder(dest);
  if (!folder)
    throw new BenchmarkError(
      `archive ${datasetPath} is not a SpreadsheetBench release: no dataset.json with a spreadsheet/ folder inside`,
    );
  return folder;
}

async function unpack(archive: string, dest: string): Promise<void> {
  const tmp = `${dest}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    await run('tar', ['-xzf', archive, '-C', tmp, '--no-same-owner', '--no-same-permissions']);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw new BenchmarkError(
      `archive ${archive} cannot be unpacked (not a gzip tar): ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`,
    );
  }
  await writeFile(path.join(tmp, '.unpacked'), new Date().toISOString());
  await rm(dest, { recursive: true, force: true });
  await rename(tmp, dest);
}

/** The archive's root or a folder up to two levels down (releases wrap the data in e.g. `all_data_912_v0.1/`). */
async function releaseFolder(root: string, depth = 2): Promise<string | undefined> {
  if ((await pathExists(path.join(root, 'dataset.json'))) && (await pathExists(path.join(root, 'spreadsheet'))))
    return root;
  if (depth === 0) return undefined;
  const entries = await readdir(root, { withFileTypes: true });
  for (const e of entries.filter((x) => x.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const found = await releaseFolder(path.join(root, e.name), depth - 1);
    if (found) return found;
  }
  return undefined;
}

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => hash.update(d))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
