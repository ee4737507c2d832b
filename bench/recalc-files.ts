import { readdir, copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sharedDataPath } from '../config/paths';

export const DEV20 = sharedDataPath('spreadsheetbench-dev20');

/** The dev20 answer workbooks, in a stable order. */
export function dev20Answers(datasetDir = DEV20): Promise<string[]> {
  return dev20Workbooks('_answer.xlsx', datasetDir);
}

/** The dev20 input workbooks (what the agents start from), in a stable order. */
export function dev20Inputs(datasetDir = DEV20): Promise<string[]> {
  return dev20Workbooks('_input.xlsx', datasetDir);
}

async function dev20Workbooks(suffix: string, datasetDir: string): Promise<string[]> {
  const root = path.join(datasetDir, 'spreadsheet');
  const files: string[] = [];
  for (const id of (await readdir(root)).sort()) {
    for (const name of (await readdir(path.join(root, id))).sort()) {
      if (name.endsWith(suffix)) files.push(path.join(root, id, name));
    }
  }
  return files;
}

/** Copies files into `dir` (the shared data is never written to); returns the copies' paths. */
export async function copyInto(dir: string, files: string[]): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  return Promise.all(
    files.map(async (file) => {
      const copy = path.join(dir, path.basename(file));
      await copyFile(file, copy);
      return copy;
    }),
  );
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
