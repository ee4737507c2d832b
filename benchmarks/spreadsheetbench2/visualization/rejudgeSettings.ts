/**
 * What a SpreadsheetBench 2 rejudge judges with, for its record beside its task list (lib/runStore/rejudgeRecord.ts):
 * asked, the starting config's vision judge with `--judge-model` in place of its model; done, the settings each chart
 * judgment records (written by the worker that judged it: judgeSettings.ts). run.json's `judge` keeps the settings the
 * run was created with; the run's settings as `show` and `compare` present them come from the judgments
 * (runJudgeSettings.ts).
 */
import type { Config } from '../../../config/schema';
import { readChartJudgment } from './chartJudgment';
import { v2JudgeSettingsOf, v2JudgeSettingsSchema, type V2JudgeSettings } from './judgeSettings';

/** What a rejudge started with `config` (and `--judge-model`) is asked to judge with. */
export const v2RequestedJudge = (request: { config: Config; judgeModel?: string }): V2JudgeSettings =>
  v2JudgeSettingsOf(request.config.visionJudge, request.judgeModel);

/** The settings the task's chart judgment records; undefined where no call was made (nothing to judge, no judge). */
export async function v2JudgedWith(runDir: string, taskId: string): Promise<V2JudgeSettings | undefined> {
  const parsed = v2JudgeSettingsSchema.safeParse((await readChartJudgment(runDir, taskId))?.judge);
  return parsed.success ? parsed.data : undefined;
}
