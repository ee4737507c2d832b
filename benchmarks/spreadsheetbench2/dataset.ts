/**
 * SpreadsheetBench 2's layout: a category folder (`Debugging`, `Financial_Model`, `Template`, `Visualization`) holds
 * dataset.json and spreadsheet/; a dataset folder is one category folder or the parent of several. A record names its
 * input (`spreadsheet_path`) and answer (`golden_response_path`) relative to its category folder.
 */
import { stat } from 'node:fs/promises';
import { readIndexFile } from '../datasetFile';
import path from 'node:path';
import { z } from 'zod';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { openWorkbookValues } from '../workbook/ooxmlReader';
import { findSheetName } from './scoring/compareWorkbooks';
import { splitAnswerPosition, splitPiece } from './scoring/cellNames';

export const V2_CATEGORIES = ['Debugging', 'Financial_Model', 'Template', 'Visualization'] as const;
/** The category whose tasks are also judged on their charts (visualization/). */
export const VISUALIZATION_CATEGORY = 'Visualization';

const recordSchema = z.object({
  id: z.union([z.string(), z.number()]),
  instruction: z.string(),
  spreadsheet_path: z.string(),
  golden_response_path: z.string(),
  answer_position: z.string(),
  /**
   * Visualization: the checklist the vision judge scores the charts on (run_visual_vlm_checklist_eval.py reads
   * `criteria`; an item's text is its `instruction`, else its `description`; `chart` names the chart it is about).
   */
  criteria: z
    .array(
      z.looseObject({
        id: z.union([z.number(), z.string()]),
        instruction: z.string().optional(),
        description: z.string().optional(),
        chart: z.string().optional(),
      }),
    )
    .optional(),
});

export interface V2Task extends z.infer<typeof recordSchema> {
  /** The category folder's name (evaluation.py's `--dataset`). */
  category: string;
  /** Absolute path of the category folder the record's paths are relative to. */
  categoryDir: string;
}

/** A task as a run's tasks.json keeps it (the record and its category), read back by later processes. */
export const v2TaskSchema = recordSchema.extend({
  category: z.string(),
  categoryDir: z.string(),
}) satisfies z.ZodType<V2Task>;

const isDir = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );

/** A category folder: dataset.json whose records carry `golden_response_path`, and spreadsheet/. */
async function isCategoryFolder(dir: string): Promise<boolean> {
  if (!(await isFile(path.join(dir, 'dataset.json'))) || !(await isDir(path.join(dir, 'spreadsheet')))) return false;
  const text = (await readIndexFile(path.join(dir, 'dataset.json'))).toString('utf8');
  try {
    const data = JSON.parse(text) as unknown;
    return Array.isArray(data) && data.some((r) => typeof r === 'object' && r !== null && 'golden_response_path' in r);
  } catch {
    return false;
  }
}

/** The category folders of a v2 dataset folder, or null when it is none. */
export async function v2CategoryFolders(datasetDir: string): Promise<string[] | null> {
  const dir = path.resolve(datasetDir);
  if (await isCategoryFolder(dir)) return [dir];
  const found: string[] = [];
  for (const name of V2_CATEGORIES) if (await isCategoryFolder(path.join(dir, name))) found.push(path.join(dir, name));
  return found.length ? found : null;
}

async function readCategory(dir: string): Promise<V2Task[]> {
  const file = path.join(dir, 'dataset.json');
  let data: unknown;
  try {
    data = JSON.parse((await readIndexFile(file)).toString('utf8'));
  } catch (err) {
    throw new DatasetError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(data)) throw new DatasetError(`${file} is not a list of task records`);
  return data.map((raw, i) => {
    const parsed = recordSchema.safeParse(raw);
    const id = (raw as { id?: string | number } | null)?.id ?? `#${i}`;
    if (!parsed.success)
      throw new DatasetError(
        `record ${i} of ${file}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        id,
      );
    const key = String(parsed.data.id);
    // An id names the task's files and folders in a run (`<id>_output.xlsx`, tasks/<id>/): never a path.
    if (!key.trim() || /[\\/\0]/.test(key) || key === '.' || key === '..')
      throw new DatasetError(`record ${i} of ${file}: id ${JSON.stringify(key)} cannot name a file`, key);
    return { ...parsed.data, category: path.basename(dir), categoryDir: dir };
  });
}

/** Every task of a v2 dataset folder (category by category), or null when the folder is no v2 dataset. */
export async function loadV2Dataset(datasetDir: string): Promise<V2Task[] | null> {
  const folders = await v2CategoryFolders(datasetDir);
  if (!folders) return null;
  const tasks: V2Task[] = [];
  for (const dir of folders) tasks.push(...(await readCategory(dir)));
  return tasks;
}

/** What is wrong with a task's files: a missing input or answer, an answer position naming no sheet of the answer. */
export async function v2TaskProblems(task: V2Task): Promise<string[]> {
  const problems: string[] = [];
  const where = `task ${String(task.id)} (${task.category})`;
  for (const [what, rel] of [
    ['input', task.spreadsheet_path],
    ['answer', task.golden_response_path],
  ] as const)
    if (!(await isFile(path.join(task.categoryDir, rel)))) problems.push(`${where}: ${what} file ${rel} is missing`);
  if (problems.length) return problems;
  try {
    const answer = await openWorkbookValues(path.join(task.categoryDir, task.golden_response_path));
    for (const piece of splitAnswerPosition(task.answer_position)) {
      const { sheet } = splitPiece(piece, () => answer.sheetnames[0] ?? '');
      if (findSheetName(answer.sheetnames, sheet) === undefined)
        problems.push(
          `${where}: answer_position ${JSON.stringify(task.answer_position)} names sheet ${JSON.stringify(sheet)}, which the answer ${task.golden_response_path} does not have (sheets: ${answer.sheetnames.join(', ')})`,
        );
    }
  } catch (err) {
    problems.push(`${where}: ${(err as Error).message}`);
  }
  return problems;
}
