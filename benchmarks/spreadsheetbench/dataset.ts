import { readdir } from 'node:fs/promises';
import { readIndexFile } from '../datasetFile';
import path from 'node:path';
import { pathExists } from '../../lib/runStore/files';
import { z } from 'zod';
import { DatasetError, selectTasks, taskKey, type SelectOptions } from '../../lib/runStore/taskRecord';
import { contentVersion } from '../datasetVersion';

/** One SpreadsheetBench instruction as it stands in dataset.json (id keeps its int or string type). */
export const sheetTaskSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  instruction: z.string(),
  spreadsheet_path: z.string().min(1),
  instruction_type: z.enum(['Cell-Level Manipulation', 'Sheet-Level Manipulation']),
  answer_position: z.string(),
  answer_sheet: z.string().optional(),
  data_position: z.string().optional(),
});
export type SheetTask = z.infer<typeof sheetTaskSchema>;

export interface TestCaseFiles {
  /** 1-based, as in the file names. */
  index: number;
  inputPath: string;
  /** The input's name as the agent sees it (`{N}_{id}_input.xlsx`, also for Verified's `init` files). */
  inputName: string;
  answerPath: string;
}

/** The official evaluator loops over exactly three test cases. */
export const OFFICIAL_TEST_CASES = 3;

export async function loadDataset(datasetDir: string): Promise<SheetTask[]> {
  return (await readDatasetIndex(datasetDir)).tasks;
}

/** dataset.json read once: its tasks, and its content version from the same bytes. */
export async function readDatasetIndex(datasetDir: string): Promise<{ tasks: SheetTask[]; version: string }> {
  const file = path.join(datasetDir, 'dataset.json');
  let bytes: Buffer;
  try {
    bytes = await readIndexFile(file);
  } catch {
    throw new DatasetError(`dataset folder ${datasetDir} has no readable dataset.json`);
  }
  return { tasks: parseDataset(bytes.toString('utf8'), file), version: contentVersion(bytes) };
}

function parseDataset(text: string, file: string): SheetTask[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new DatasetError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new DatasetError(`${file} must hold a JSON array of tasks`);
  return raw.map((entry, i) => {
    const parsed = sheetTaskSchema.safeParse(entry);
    if (!parsed.success) {
      const id = (entry as { id?: unknown })?.id;
      const where = typeof id === 'string' || typeof id === 'number' ? `task ${id}` : `entry ${i}`;
      throw new DatasetError(
        `${file}: ${where} is malformed: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
      );
    }
    return parsed.data;
  });
}

/** The tasks a run takes (`--tasks`, `--limit`). */
export function selectSheetTasks(tasks: SheetTask[], select: SelectOptions): SheetTask[] {
  return selectTasks(tasks, select, (missing) => `unknown task id(s): ${missing.join(', ')}`);
}

/** Test-case files of a task: `{N}_{id}_input.xlsx` / `{N}_{id}_answer.xlsx`, N = 1.. while the input exists; or Verified's one case. */
export async function testCaseFiles(
  datasetDir: string,
  task: SheetTask,
  max = OFFICIAL_TEST_CASES,
): Promise<TestCaseFiles[]> {
  const dir = path.join(datasetDir, task.spreadsheet_path);
  const id = taskKey(task.id);
  const cases: TestCaseFiles[] = [];
  for (let n = 1; n <= max; n++) {
    const inputPath = path.join(dir, `${n}_${id}_input.xlsx`);
    if (!(await pathExists(inputPath))) break;
    cases.push({
      index: n,
      inputPath,
      inputName: `${n}_${id}_input.xlsx`,
      answerPath: path.join(dir, `${n}_${id}_answer.xlsx`),
    });
  }
  if (cases.length || max < 1) return cases;
  const verified = await verifiedTestCase(dir, id);
  return verified ? [verified] : [];
}

/**
 * SpreadsheetBench Verified has one test case per task: `1_{id}_init.xlsx` / `1_{id}_golden.xlsx`, except five tasks
 * with bare `initial.xlsx` / `golden.xlsx` and one (42930) whose golden file carries another id (43930).
 */
export async function verifiedTestCase(dir: string, id: string): Promise<TestCaseFiles | null> {
  const inputPath = await firstExisting([path.join(dir, `1_${id}_init.xlsx`), path.join(dir, 'initial.xlsx')]);
  if (!inputPath) return null;
  const named = await firstExisting([path.join(dir, `1_${id}_golden.xlsx`), path.join(dir, 'golden.xlsx')]);
  const golden = named ?? (await readdir(dir).catch(() => [] as string[])).find((f) => /^1_.+_golden\.xlsx$/.test(f));
  return {
    index: 1,
    inputPath,
    inputName: `1_${id}_input.xlsx`,
    answerPath: named ?? path.join(dir, golden ?? `1_${id}_golden.xlsx`),
  };
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const p of paths) if (await pathExists(p)) return p;
  return undefined;
}
