/**
 * The release asks that a task's input and answer be recalculated (LibreOffice) before a run: a run gives the agent
 * the recalculated input and scores against the recalculated answer. The copies are made once per content on the
 * recalc queue (recalculatedCopies.ts, a cache shared by every run), placed in the run folder
 * (`V2RunFiles.recalculatedPath`) and read from there; the dataset's own files are never written. A file the engine
 * could not recalculate is used as it is, and the task's result says so.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { V2Task } from '../dataset';
import { datasetFilesOf, type V2TaskFiles } from '../scoring/scoreTask';
import type { V2RunFiles } from './files';

/** What became of one dataset file: recalculated (the copy made now, or found in the cache), or used as it is, and why. */
export interface V2CopyOutcome {
  recalculated: boolean;
  /** The engine made the copy for this task (false: found in the cache of recalculated copies). */
  made: boolean;
  /** Why the dataset's file is used as it is (it is missing, leaves its category folder, the engine failed). */
  problem?: string;
}

export interface V2DatasetCopies {
  input: V2CopyOutcome;
  answer: V2CopyOutcome;
}

export type V2DatasetFileKind = keyof V2DatasetCopies;

const FIELD: Record<V2DatasetFileKind, 'spreadsheet_path' | 'golden_response_path'> = {
  input: 'spreadsheet_path',
  answer: 'golden_response_path',
};

/**
 * The task's input or answer as a regular file inside its category folder, or why it is not one (missing, a link, a
 * path that leaves the folder): nothing outside the dataset is read, recalculated or shown to an agent.
 */
export async function datasetFile(
  task: V2Task,
  kind: V2DatasetFileKind,
): Promise<{ path: string } | { problem: string }> {
  const rel = task[FIELD[kind]];
  const where = `task ${String(task.id)} (${task.category}): ${kind} file ${rel}`;
  const dir = path.resolve(task.categoryDir);
  const file = path.resolve(dir, rel);
  if (!file.startsWith(dir + path.sep)) return { problem: `${where} leaves its category folder` };
  const st = await lstat(file).catch(() => undefined);
  if (!st) return { problem: `${where} is missing` };
  if (st.isSymbolicLink()) return { problem: `${where} is a link; not read` };
  if (!st.isFile()) return { problem: `${where} is not a regular file` };
  const real = await realpath(file);
  if (!real.startsWith((await realpath(dir)) + path.sep)) return { problem: `${where} leaves its category folder` };
  return { path: file };
}

/** The files a run's task is scored on: the recalculated input and answer where they were made, and its output. */
export function scoredFilesOf(
  task: V2Task,
  key: string,
  files: V2RunFiles,
  copies: V2DatasetCopies | undefined,
): V2TaskFiles {
  const dataset = datasetFilesOf(task, files.outputsDir);
  return {
    input: copies?.input.recalculated ? files.recalculatedPath(key, 'input') : dataset.input,
    answer: copies?.answer.recalculated ? files.recalculatedPath(key, 'answer') : dataset.answer,
    output: files.outputPath(key),
  };
}
