/**
 * The sheet preview of a task's first input depends only on the dataset (the input workbook and the number of rows),
 * never on a run: it is built once per dataset version and kept on disk, one small file per task under
 * `<dir>/<dataset version>/<task>.json`. An entry counts only for the same dataset version, number of rows and input
 * path, while the input workbook keeps its size and modification time; anything else (a missing, torn or stale entry)
 * is built again and rewritten. The store never changes a preview, it only saves building it again.
 */
import path from 'node:path';
import { z } from 'zod';
import { fileStampSchema, sameStamp, stampOf, userCacheDir } from '../../../lib/runStore/fileStamp';
import { readCacheEntry } from '../../../lib/runStore/cacheEntry';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import { safeName } from '../../../lib/runStore/runLayout';

const previewEntry = z.object({ rows: z.number(), input: z.string(), stamp: fileStampSchema, text: z.string() });

export interface PreviewQuery {
  /** The dataset's content version (`contentVersion` of its index file). */
  datasetVersion: string;
  /** The task's key (file-safe id); a task's epochs share it. */
  taskKey: string;
  /** The previewed workbook (the first test case's input). */
  inputPath: string;
  rows: number;
}

export class PreviewStore {
  constructor(readonly dir: string = userCacheDir('preview')) {}

  private fileOf(q: PreviewQuery): string {
    return path.join(this.dir, safeName(q.datasetVersion), `${safeName(q.taskKey)}.json`);
  }

  /** The kept preview, or undefined when it must be built (again). */
  async get(q: PreviewQuery): Promise<string | undefined> {
    const entry = await readCacheEntry(this.fileOf(q), previewEntry);
    if (!entry || entry.rows !== q.rows || entry.input !== q.inputPath) return undefined;
    return sameStamp(await stampOf(q.inputPath), entry.stamp) ? entry.text : undefined;
  }

  /** Keeps the preview built from `q.inputPath` (nothing is kept when the workbook is gone). */
  async put(q: PreviewQuery, text: string): Promise<void> {
    const stamp = await stampOf(q.inputPath);
    if (!stamp) return;
    await writeJsonAtomic(this.fileOf(q), { rows: q.rows, input: q.inputPath, stamp, text }, 0);
  }
}
