import { readFile } from 'node:fs/promises';
import { runContext } from '../run/runContext';
import { taskKey } from '../dataset/spreadsheetbench';
import { readJson, readJsonOr, writeFileAtomic, writeJsonAtomic } from '../artifacts/files';
import path from 'node:path';
import type { TaskResult } from '../run/taskResult';
import { officialConvPath } from './task';
import { summarizeRun, type RunSummary } from '../run/summary';

export const runActivities = {
  /** A page of task ids in run order (the task list travels by reference: it stays in the run folder). */
  async listTaskIds(input: { runDir: string; offset: number; limit: number; taskIdsFile?: string }): Promise<string[]> {
    const ctx = await runContext(input.runDir);
    const ids = input.taskIdsFile
      ? await readJson<string[]>(path.join(input.runDir, input.taskIdsFile))
      : ctx.tasks.map((t) => taskKey(t.id));
    return ids.slice(input.offset, input.offset + input.limit);
  },

  /** Writes the official eval JSON, the official conv JSONL and summary.json from the per-task results. */
  async finalizeRun(input: { runDir: string }): Promise<RunSummary> {
    const ctx = await runContext(input.runDir);
    const results: TaskResult[] = [];
    const convLines: string[] = [];
    for (const task of ctx.tasks) {
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
  },
};
