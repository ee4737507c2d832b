import { readFile } from 'node:fs/promises';
import { taskKey } from '../../lib/runStore/taskRecord';
import { readJsonOr, writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import type { TaskResult } from '../../contracts/taskResult';
import { sheetRun } from './run';
import { summarizeRun } from './summary';
import { type RunSummary } from '../report/runSummary';

/** Writes the official eval JSON, the official conv JSONL and summary.json from the per-task results. */
export async function finalizeSpreadsheetRun(runDir: string): Promise<RunSummary> {
  const ctx = await sheetRun(runDir);
  const results: TaskResult[] = [];
  const convLines: string[] = [];
  for (const task of ctx.tasks) {
    const id = taskKey(task.id);
    const result = await readJsonOr<TaskResult | null>(ctx.layout.taskResultPath(id), null);
    if (result) results.push(result);
    const conv = await readFile(ctx.official.officialConvPath(id), 'utf8').catch(() => null);
    if (conv !== null) convLines.push(JSON.stringify(JSON.parse(conv)));
  }
  const evalJson = results.map((r) => ({
    id: r.id,
    instruction_type: r.instructionType,
    test_case_results: r.testCaseResults,
    soft_restriction: r.soft,
    hard_restriction: r.hard,
  }));
  await writeJsonAtomic(ctx.official.evalPath, evalJson, 4);
  await writeFileAtomic(ctx.official.convLogPath, convLines.map((l) => `${l}\n`).join(''));
  const summary = summarizeRun(ctx.manifest, ctx.tasks.length, results);
  await writeJsonAtomic(ctx.layout.summaryPath, summary);
  return summary;
}
