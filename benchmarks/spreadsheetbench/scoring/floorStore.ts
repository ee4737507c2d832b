/**
 * The floor (does the unchanged input already pass a test case?) depends only on the dataset, never on a run: it is
 * computed once per dataset version and kept on disk, one small file per task under
 * `<dir>/<dataset version>/<task>.json`. An entry counts only for the same dataset version (the content hash of the
 * dataset's index), scoring mode and answer position, and while the input and answer workbooks keep their size and
 * modification time: a changed dataset or a replaced workbook is scored again. A missing, unreadable or stale entry
 * is recomputed and rewritten; the store never changes a verdict, it only saves reading the inputs again.
 */
import path from 'node:path';
import { z } from 'zod';
import { fileStampSchema as fileStamp, sameStamp, stampOf, userCacheDir } from '../../../lib/runStore/fileStamp';
import { readCacheEntry } from '../../../lib/runStore/cacheEntry';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import { safeName } from '../../../lib/runStore/runLayout';
import type { ScoringMode } from './types';

const floorEntry = z.object({
  mode: z.string(),
  answerPosition: z.string(),
  cases: z.array(z.object({ index: z.number(), input: fileStamp, answer: fileStamp, inputPasses: z.boolean() })),
});
type FloorEntry = z.infer<typeof floorEntry>;

/** One test case's files, as the floor of a task is looked up. */
export interface FloorCase {
  index: number;
  inputPath: string;
  answerPath: string;
}

export interface FloorQuery {
  /** The dataset's content version (`contentVersion` of its index file). */
  datasetVersion: string;
  /** The task's key (file-safe id). */
  taskKey: string;
  mode: ScoringMode;
  answerPosition: string;
  cases: FloorCase[];
}

/** Where floors are kept when no folder is given: the user's cache folder. */
export function defaultFloorDir(): string {
  return userCacheDir('floor');
}

export class FloorStore {
  constructor(readonly dir: string = defaultFloorDir()) {}

  private fileOf(q: FloorQuery): string {
    return path.join(this.dir, safeName(q.datasetVersion), `${safeName(q.taskKey)}.json`);
  }

  /** The recorded floor per test case (in `q.cases` order), or undefined when it must be computed again. */
  async get(q: FloorQuery): Promise<boolean[] | undefined> {
    const entry = await readCacheEntry(this.fileOf(q), floorEntry);
    if (!entry || entry.mode !== q.mode || entry.answerPosition !== q.answerPosition) return undefined;
    const out: boolean[] = [];
    for (const c of q.cases) {
      const hit = entry.cases.find((e) => e.index === c.index);
      if (!hit) return undefined;
      const [input, answer] = await Promise.all([stampOf(c.inputPath), stampOf(c.answerPath)]);
      if (!sameStamp(input, hit.input) || !sameStamp(answer, hit.answer)) return undefined;
      out.push(hit.inputPasses);
    }
    return out;
  }

  /** Records the floor computed for `q.cases` (same order); a case whose files are gone is not recorded. */
  async put(q: FloorQuery, inputPasses: boolean[]): Promise<void> {
    const cases: FloorEntry['cases'] = [];
    for (const [i, c] of q.cases.entries()) {
      const [input, answer] = await Promise.all([stampOf(c.inputPath), stampOf(c.answerPath)]);
      if (!input || !answer) return;
      cases.push({ index: c.index, input, answer, inputPasses: inputPasses[i] });
    }
    const entry: FloorEntry = { mode: q.mode, answerPosition: q.answerPosition, cases };
    await writeJsonAtomic(this.fileOf(q), entry, 0);
  }
}
