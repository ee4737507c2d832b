/**
 * The judge settings of a SpreadsheetBench 2 run, as `show` and `compare` present them: those its chart judgments were
 * made with (one entry per distinct setting: a run partly re-judged with another model has two), else, when no
 * judgment recorded any (none judged yet, or judged before judgments recorded them), the ones run.json recorded when
 * the run was created. A run that recorded none (created before run.json had them) has none.
 */
import type { RunManifest } from '../../../lib/runStore/manifest';
import { taskKey } from '../../../lib/runStore/taskRecord';
import { VISUALIZATION_CATEGORY } from '../dataset';
import { v2Run } from '../run/files';
import { readChartJudgment } from './chartJudgment';
import { v2JudgeSettingsFields, v2JudgeSettingsSchema } from './judgeSettings';

export type JudgeFields = Record<string, string>;

/** The settings run.json recorded when the run was created, as fields; none when it recorded none. */
export function createdJudgeFields(manifest: RunManifest): JudgeFields | undefined {
  const parsed = v2JudgeSettingsSchema.safeParse(manifest.judge);
  return parsed.success ? v2JudgeSettingsFields(parsed.data) : undefined;
}

export async function v2RunJudgeSettings(runDir: string): Promise<JudgeFields[]> {
  const run = await v2Run(runDir);
  const distinct = new Map<string, JudgeFields>();
  for (const task of run.tasks.filter((t) => t.category === VISUALIZATION_CATEGORY)) {
    const parsed = v2JudgeSettingsSchema.safeParse((await readChartJudgment(runDir, taskKey(task.id)))?.judge);
    if (!parsed.success) continue;
    const fields = v2JudgeSettingsFields(parsed.data);
    distinct.set(JSON.stringify(fields), fields);
  }
  if (distinct.size) return [...distinct.values()];
  const created = createdJudgeFields(run.manifest);
  return created ? [created] : [];
}
