import { copyFile, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isCorruptFileError, readJsonIfPresent } from '../../lib/json';
import { DatasetError } from '../../lib/runStore/taskRecord';
import type { Sandbox } from '../../lib/sandbox/types';
import { pathExists } from '../../lib/runStore/files';

/** An encrypted (password-protected) xlsx is an OLE compound file, not a zip: say so rather than pandas' guess (xls). */
async function refuseEncrypted(competitionId: string, file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.readUInt32BE(0) === 0xd0cf11e0) {
      throw new DatasetError(
        `competition ${competitionId}: workbook ${path.basename(file)} cannot be read: it is password-protected (an encrypted OLE container)`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** dsbench_error.json, written by workbook_text.py in the sandbox (another process): which workbook failed, and why. */
export const workbookErrorSchema = z.looseObject({ file: z.string(), error: z.string() });

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'workbook_text.py');

/**
 * The text of a competition's workbooks (what the original inlines in the prompt), computed by real pandas inside a
 * sandbox whose work dir holds only copies of those workbooks. An unreadable workbook is the competition's dataset error.
 */
export async function workbookText(opts: {
  competitionId: string;
  dir: string;
  workbooks: string[];
  workDir: string;
  sandbox: (workDir: string) => Promise<Sandbox>;
  timeoutMs: number;
}): Promise<string> {
  if (!opts.workbooks.length) return '';
  for (const name of opts.workbooks) await refuseEncrypted(opts.competitionId, path.join(opts.dir, name));
  await rm(opts.workDir, { recursive: true, force: true });
  await mkdir(opts.workDir, { recursive: true });
  for (const name of opts.workbooks) await copyFile(path.join(opts.dir, name), path.join(opts.workDir, name));
  await writeFile(path.join(opts.workDir, 'dsbench_names.json'), JSON.stringify(opts.workbooks));
  const sandbox = await opts.sandbox(opts.workDir);
  try {
    const script = await readFile(SCRIPT, 'utf8');
    const code = `import os\nos.environ['DSBENCH_WORKDIR'] = ${JSON.stringify(sandbox.workDirInside)}\n${script}`;
    const result = await sandbox.execute(code, { timeoutMs: opts.timeoutMs });
    const errorFile = path.join(opts.workDir, 'dsbench_error.json');
    const reported = await readJsonIfPresent(errorFile, workbookErrorSchema).catch((err: unknown) => {
      throw isCorruptFileError(err) ? new Error(`competition ${opts.competitionId}: ${err.message}`) : err;
    });
    if (reported) {
      const { file, error } = reported;
      throw new DatasetError(
        `competition ${opts.competitionId}: workbook ${file} cannot be read (unreadable, encrypted or unsupported): ${error}`,
      );
    }
    const textFile = path.join(opts.workDir, 'dsbench_workbook.txt');
    if (!(await pathExists(textFile))) {
      throw new Error(
        `competition ${opts.competitionId}: reading the workbooks failed${result.timedOut ? ' (timed out)' : ''}: ${result.error || result.stderr}`.slice(
          0,
          2000,
        ),
      );
    }
    return await readFile(textFile, 'utf8');
  } finally {
    await sandbox.dispose();
    await rm(opts.workDir, { recursive: true, force: true });
  }
}
