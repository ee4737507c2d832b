import { attemptKey, taskKey } from '../../lib/runStore/taskRecord';
import { writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import { parseJsonText, readJsonIfPresent, readTextIfPresent } from '../../lib/json';
import { taskResultSchema } from '../../contracts/taskResultSchema';
import type { TaskResult } from '../../contracts/taskResult';
import { z } from 'zod';
import { sheetRun, type SheetRun } from './run';
import { summarizeRun } from './summary';
import { scoringFacts } from './scoringFacts';
import { type RunSummary } from '../report/runSummary';

/**
 * Writes the official eval JSON and conv JSONL (one pair per epoch in a run with repeats: epoch e ≥ 2 under
 * `epochs/<e>/`) and summary.json from the per-task results, with the floor and unreachable test cases.
 */
export async function finalizeSpreadsheetRun(runDir: string): Promise<RunSummary> {
  const ctx = await sheetRun(runDir);
  const results: TaskResult[] = [];
  for (let epoch = 1; epoch <= (ctx.manifest.epochs ?? 1); epoch++) results.push(...(await finalizeEpoch(ctx, epoch)));
  const attempts = results.map((r) => ({ taskKey: taskKey(r.id), key: r.taskId }));
  const summary = summarizeRun(ctx.manifest, ctx.tasks.length, results, await scoringFacts(runDir, attempts));
  await writeJsonAtomic(ctx.layout.summaryPath, summary);
  return summary;
}

async function finalizeEpoch(ctx: SheetRun, epoch: number): Promise<TaskResult[]> {
  const results: TaskResult[] = [];
  const convLines: string[] = [];
  for (const task of ctx.tasks) {
    const key = attemptKey(taskKey(task.id), epoch);
    const result = await readJsonIfPresent(ctx.layout.taskResultPath(key), taskResultSchema);
    if (result) results.push(result);
    const convFile = ctx.official.officialConvPath(key);
    const conv = await readTextIfPresent(convFile);
    if (conv !== undefined) convLines.push(JSON.stringify(parseJsonText(conv, z.unknown(), convFile)));
  }
  const evalJson = results.map((r) => ({
    id: r.id,
    instruction_type: r.instructionType,
    test_case_results: r.testCaseResults,
    soft_restriction: r.soft,
    hard_restriction: r.hard,
  }));
  await writeJsonAtomic(ctx.official.evalPathOf(epoch), evalJson, 4);
  await writeFileAtomic(ctx.official.convLogPathOf(epoch), convLines.map((l) => `${l}\n`).join(''));
  return results;
}
