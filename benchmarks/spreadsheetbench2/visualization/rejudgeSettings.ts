/**
 * What one `sheetbench rejudge` of a SpreadsheetBench 2 run judged with, recorded beside its task list
 * (`<tag>.judge.json` next to `<tag>.json`): the distinct settings its tasks' judgments record (each written by the
 * worker that judged it: judgeSettings.ts) with the tasks judged so, and the tasks it judged without a model call
 * (nothing to judge, or no judge configured). run.json's `judge` keeps the settings the run was created with; the
 * run's settings as `show` and `compare` present them come from the judgments (runJudgeSettings.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import { readRequiredJson } from '../../../lib/json';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import { readChartJudgment } from './chartJudgment';
import { v2JudgeSettingsSchema, type V2JudgeSettings } from './judgeSettings';

export interface RejudgeSettingsRecord {
  tag: string;
  recordedAt: string;
  settings: { judge: V2JudgeSettings; tasks: string[] }[];
  /** Tasks whose judgment records no settings (no call was made: nothing to judge, or no judge configured). */
  withoutCall: string[];
}

export const rejudgeSettingsPath = (runDir: string, tag: string) => path.join(runDir, `${tag}.judge.json`);

/** Reads the rejudge's task list (`<tag>.json`) and writes `<tag>.judge.json` from the tasks' judgments. */
export async function recordRejudgeSettings(runDir: string, tag: string): Promise<RejudgeSettingsRecord> {
  const ids = await readRequiredJson(path.join(runDir, `${tag}.json`), z.array(z.string()));
  const byKey = new Map<string, { judge: V2JudgeSettings; tasks: string[] }>();
  const withoutCall: string[] = [];
  for (const id of ids) {
    const parsed = v2JudgeSettingsSchema.safeParse((await readChartJudgment(runDir, id))?.judge);
    if (!parsed.success) {
      withoutCall.push(id);
      continue;
    }
    const key = JSON.stringify(parsed.data);
    const entry = byKey.get(key) ?? { judge: parsed.data, tasks: [] };
    entry.tasks.push(id);
    byKey.set(key, entry);
  }
  const record = { tag, recordedAt: new Date().toISOString(), settings: [...byKey.values()], withoutCall };
  await writeJsonAtomic(rejudgeSettingsPath(runDir, tag), record);
  return record;
}
