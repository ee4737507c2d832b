import { readFile } from 'node:fs/promises';
import { taskKey, type SheetTask } from './dataset';
import { readJsonOr, writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import type { TaskResult } from '../../contracts/taskResult';
import type { RunContext } from '../../lib/runStore/runContext';
import { officialConvPath } from '../../activities/spreadsheetbench/task';
import { summarizeRun, type RunSummary } from './summary';

/** Writes the official eval JSON, the official conv JSONL and summary.json from the per-task results. */
export async function finalizeSpreadsheetRun(ctx: RunContext): Promise<RunSummary> {
  const results: TaskResult[] = [];
  const convLines: string[] = [];
  for (const task of ctx.tasks as SheetTask[]) {
    const id = taskKey(task.id);
    const result = await readJsonOr<TaskResult | null>(ctx.layout.taskResultPath(id), null);
    if (result) results.push(result);
    const conv = await readFile(officialConvPath(ctx.layout.taskDir(id)), 'utf8').catch(() => null);
    if (conv !== null) convLines.push(JSON.stringify(JSON.parse(conv)));
  }
  const evalJson = results.map((r) => ({
    id: r.id,
    instruction_type: r.instructionType,
    test_case_results: r.testCaseResults,
    soft_restriction: r.soft,
    hard_restriction: r.hard,
  }));
  await writeJsonAtomic(ctx.layout.evalPath, evalJson, 4);
  await writeFileAtomic(ctx.layout.convLogPath, convLines.map((l) => `${l}\n`).join(''));
  const summary = summarizeRun(ctx.manifest, ctx.tasks.length, results);
  await writeJsonAtomic(ctx.layout.summaryPath, summary);
  return summary;
}
