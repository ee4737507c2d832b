/**
 * The release asks that inputs and answers be recalculated with LibreOffice before any run (evaluation/
 * open_spreadsheet.py) and outputs before scoring. A workbook is recalculated once: its recalculated copy is kept under
 * `<dir>/<sha256 of its bytes>.xlsx` and reused for any file with the same content, whatever its name or folder. The
 * user's file is never written: the engine reads a copy in the cache folder and writes the copy's result there.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Recalculator } from '../../lib/recalc';
import { pathExists } from '../../lib/runStore/files';

/** Where recalculated copies are kept when no folder is given: the user's cache folder. */
export function defaultRecalculatedDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'sheetbench', 'v2-recalculated');
}

/** A workbook the engine could not recalculate: the message names the file and the engine's reason. */
export class RecalculationError extends Error {
  override name = 'RecalculationError';
}

export class RecalculatedCopies {
  /** Copies made by the engine in this process (the rest were found in the cache). */
  made = 0;
  reused = 0;
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly recalculator: Pick<Recalculator, 'recalc'>,
    readonly dir = defaultRecalculatedDir(),
  ) {}

  /** The recalculated copy of `file` (made now, or found by its content); throws RecalculationError naming the file. */
  async of(file: string): Promise<string> {
    return (await this.copyOf(file)).path;
  }

  /** The same, saying whether the engine made the copy now (false: found in the cache, or made by a call waited on). */
  async copyOf(file: string): Promise<{ path: string; made: boolean }> {
    await sweepDeadStaging(this.dir);
    const key = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
    const copy = path.join(this.dir, `${key}.xlsx`);
    if (await pathExists(copy)) {
      this.reused++;
      return { path: copy, made: false };
    }
    // Two tasks sharing one workbook in the same process wait for the same recalculation.
    const pending = this.pending.get(key);
    if (pending) {
      this.reused++;
      return { path: await pending, made: false };
    }
    const making = this.make(file, copy).finally(() => this.pending.delete(key));
    this.pending.set(key, making);
    return { path: await making, made: true };
  }

  private async make(file: string, copy: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const stage = `${copy}.${process.pid}.${Date.now()}`;
    const source = `${stage}.in.xlsx`;
    const result = `${stage}.out.xlsx`;
    try {
      await copyFile(file, source);
      const r = await this.recalculator.recalc(source, result);
      if (!r.ok)
        throw new RecalculationError(`${file} could not be recalculated (${r.engine}): ${r.error ?? 'no output'}`);
      await rename(result, copy);
      this.made++;
      return copy;
    } finally {
      await rm(source, { force: true });
      await rm(result, { force: true });
    }
  }
}

/**
 * A copy's staging files (`<sha256>.xlsx.<pid>.<ms>.in.xlsx`, `….out.xlsx` and the engine's `.…out.<hex>.recalc.xlsx`)
 * are removed when the copy is made or fails, but a process killed mid-copy (kill -9) leaves them. The first copy asked
 * for in a process removes those of processes that no longer exist (a pid alive, even reused, keeps its files).
 */
const STAGING = /^\.?[0-9a-f]{64}\.xlsx\.(\d+)\.\d+\.(in|out)\./;
const swept = new Set<string>();

async function sweepDeadStaging(dir: string): Promise<void> {
  if (swept.has(dir)) return;
  swept.add(dir);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(STAGING.exec(name)?.[1]);
    if (pid && pid !== process.pid && !processAlive(pid)) await rm(path.join(dir, name), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
