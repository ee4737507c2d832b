import { runContextReader, type RunContext } from '../../lib/runStore/runContext';
import { sheetTaskSchema, type SheetTask } from './dataset';
import { OfficialFiles } from './layout';

/** A SpreadsheetBench run as its activities and scorer see it: its tasks, and its official files. */
export interface SheetRun extends RunContext<SheetTask> {
  official: OfficialFiles;
}

const readRun = runContextReader(sheetTaskSchema);

export async function sheetRun(runDir: string): Promise<SheetRun> {
  const ctx = await readRun(runDir);
  return {
    ...ctx,
    official: new OfficialFiles(
      ctx.layout.root,
      ctx.manifest.setting,
      ctx.manifest.llm.model,
      ctx.manifest.epochs ?? 1,
    ),
  };
}
