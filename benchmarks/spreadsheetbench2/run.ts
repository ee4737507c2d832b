import { z } from 'zod';
import { runContextReader, type RunContext } from '../../lib/runStore/runContext';
import type { V2Task } from './dataset';

/** A v2 task as tasks.json of a run holds it (the dataset record, its category and the category folder). */
export const v2TaskSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  instruction: z.string(),
  spreadsheet_path: z.string(),
  golden_response_path: z.string(),
  answer_position: z.string(),
  category: z.string(),
  categoryDir: z.string(),
}) satisfies z.ZodType<V2Task>;

/** A SpreadsheetBench 2 run as its activities and scorer see it. */
export type V2Run = RunContext<V2Task>;

export const v2Run = runContextReader<V2Task>(v2TaskSchema);
