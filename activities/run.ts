import { runContext } from '../run/runContext';
import { taskKey } from '../dataset/spreadsheetbench';
import { readJson } from '../artifacts/files';
import path from 'node:path';
import { benchmarkNamed } from '../benchmarks';

export const runActivities = {
  /** A page of task ids in run order (the task list travels by reference: it stays in the run folder). */
  async listTaskIds(input: { runDir: string; offset: number; limit: number; taskIdsFile?: string }): Promise<string[]> {
    const ctx = await runContext(input.runDir);
    const ids = input.taskIdsFile
      ? await readJson<string[]>(path.join(input.runDir, input.taskIdsFile))
      : ctx.tasks.map((t) => taskKey(t.id));
    return ids.slice(input.offset, input.offset + input.limit);
  },

  /** Scores the finished run with its benchmark's scorer: official files and summary.json. */
  async finalizeRun(input: { runDir: string }): Promise<unknown> {
    const ctx = await runContext(input.runDir);
    return benchmarkNamed(ctx.manifest.benchmark).finalize(ctx);
  },
};
