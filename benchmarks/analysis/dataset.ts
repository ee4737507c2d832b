import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** The analysis task suite (`data/analysis/`, made by `make_suite.py`): requests the agent sees, answers it never sees. */
export const analysisTaskSchema = z.object({
  id: z.string(),
  /** 1 one computation · 2 fetch JSON · 3 chart (first code may fail) · 4 multi-step moving averages · 5 models and clusters. */
  level: z.number().int().min(1).max(5),
  /** `{url}` is replaced by the address of the local data server serving `files/<fetch>`. */
  question: z.string(),
  files: z.array(z.string()),
  fetch: z.string().optional(),
});

/** The values a chart or table must show, by label (the scorer checks them, whatever the columns are named). */
const shownValuesFields = {
  values: z.record(z.string(), z.number()).optional(),
  /** The values are compared as shares of their sum (a pie chart). */
  proportional: z.boolean().optional(),
};

export const expectedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('number'), value: z.number(), tolerance: z.number() }),
  /** Every one of these numbers in the answer (a total per group). */
  z.object({ kind: z.literal('numbers'), values: z.array(z.number()), tolerance: z.number() }),
  z.object({ kind: z.literal('list'), values: z.array(z.string()) }),
  z.object({ kind: z.literal('text'), contains: z.string() }),
  z.object({ kind: z.literal('chart'), type: z.string(), x: z.string(), y: z.array(z.string()), ...shownValuesFields }),
  z.object({ kind: z.literal('table'), columns: z.array(z.string()), rows: z.number().int(), ...shownValuesFields }),
]);

export type AnalysisTask = z.infer<typeof analysisTaskSchema>;
export type Expected = z.infer<typeof expectedSchema>;

export interface AnalysisSuite {
  dir: string;
  /** `v<version>` from tasks.json (`v1` when it names none). */
  edition: string;
  tasks: AnalysisTask[];
  answers: Record<string, Expected>;
}

export async function loadAnalysisSuite(dir: string): Promise<AnalysisSuite> {
  const read = async (name: string) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as unknown;
  const index = z
    .object({ version: z.string().optional(), tasks: z.array(analysisTaskSchema) })
    .parse(await read('tasks.json'));
  const tasks = index.tasks;
  const answers = z.record(z.string(), expectedSchema).parse(await read('answers.json'));
  const missing = tasks.filter((t) => !answers[t.id]).map((t) => t.id);
  if (missing.length) throw new Error(`${dir}: no answer for ${missing.join(', ')}`);
  return { dir, edition: `v${index.version ?? '1'}`, tasks, answers };
}

export function filesDir(suite: AnalysisSuite): string {
  return path.join(suite.dir, 'files');
}

/** The request as the agent reads it: `{url}` becomes the data server's address of the fetched file. */
export function requestText(task: AnalysisTask, dataUrl: string): string {
  return task.question.replace('{url}', `${dataUrl}/${task.fetch ?? ''}`);
}
