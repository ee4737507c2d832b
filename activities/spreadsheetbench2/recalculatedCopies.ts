/**
 * On the recalc queue: a task's input and answer recalculated once per content (the cache of recalculated copies,
 * benchmarks/spreadsheetbench2/recalculatedCopies.ts) and placed in the run folder, where the agent's work folder and
 * the scorer take them (benchmarks/spreadsheetbench2/run/datasetCopies.ts). The dataset's files are only read.
 */
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { Recalculator } from '../../lib/recalc/types';
import { RecalculatedCopies, RecalculationError } from '../../benchmarks/spreadsheetbench2/recalculatedCopies';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import {
  datasetFile,
  type V2CopyOutcome,
  type V2DatasetCopies,
  type V2DatasetFileKind,
} from '../../benchmarks/spreadsheetbench2/run/datasetCopies';
import { withHeartbeat } from '../heartbeat';

/** Engine failures worth another attempt (as the recalc queue's own activities classify them). */
const TRANSIENT = /timeout|crash|died|restart/i;

export function v2RecalcActivities(recalculator: () => Promise<Recalculator>, cacheDir?: string) {
  let copies: RecalculatedCopies | undefined;
  // One cache per worker: tasks sharing a workbook wait for one recalculation. Its folder is read when first used.
  const cache = () =>
    (copies ??= new RecalculatedCopies(
      { recalc: async (input, output, opts) => (await recalculator()).recalc(input, output, opts) },
      ...(cacheDir ? [cacheDir] : []),
    ));
  return {
    /** The task's input and answer as recalculated copies in its run folder; idempotent (a retry finds the cache). */
    async v2RecalculatedCopies(input: { runDir: string; taskId: string }): Promise<V2DatasetCopies> {
      const run = await v2Run(input.runDir);
      const task = run.task(input.taskId);
      const one = async (kind: V2DatasetFileKind): Promise<V2CopyOutcome> => {
        const source = await datasetFile(task, kind);
        if ('problem' in source) return { recalculated: false, made: false, problem: source.problem };
        try {
          const copy = await withHeartbeat(() => cache().copyOf(source.path));
          await placeCopy(copy.path, run.files.recalculatedPath(input.taskId, kind));
          return { recalculated: true, made: copy.made };
        } catch (err) {
          if (!(err instanceof RecalculationError)) throw err;
          if (TRANSIENT.test(err.message)) throw ApplicationFailure.retryable(err.message, 'RecalcFailed');
          return { recalculated: false, made: false, problem: `used as it is: ${err.message}` };
        }
      };
      return { input: await one('input'), answer: await one('answer') };
    },
  };
}

/** The cached copy into the run folder (a clone where the file system can, else a copy), whole or not at all. */
async function placeCopy(cached: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await copyFile(cached, tmp, constants.COPYFILE_FICLONE);
    await rename(tmp, target);
  } finally {
    await rm(tmp, { force: true });
  }
}

export type V2RecalcActivities = ReturnType<typeof v2RecalcActivities>;
