/**
 * What one `sheetbench rejudge` of a SpreadsheetBench 2 run judged with, recorded beside its task list
 * (`<tag>.judge.json` next to `<tag>.json`), in two steps:
 * - `started`, written before the rejudge's workflow starts, so before any of its verdicts: the tasks it judges, when
 *   it started and what it was asked to judge with (the starting config's judge and `--judge-model`). A rejudge killed
 *   mid-way leaves this record: a listed task whose judgment is newer than `startedAt` was judged by it, the others
 *   still hold the run's earlier verdicts; `sheetbench rejudge RUN` resumes it (unfinishedRejudge) under the same tag;
 * - `finished`, rewritten once its workflow ended: the distinct settings its tasks' judgments record (each written by
 *   the worker that judged it: judgeSettings.ts; a worker's config may differ from the starting one) with the tasks
 *   judged so, and the tasks judged without a model call (nothing to judge, or no judge configured).
 * run.json's `judge` keeps the settings the run was created with; the run's settings as `show` and `compare` present
 * them come from the judgments (runJudgeSettings.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../../../config/schema';
import { readJsonIfPresent, readRequiredJson } from '../../../lib/json';
import { namesInFolder, writeJsonAtomic } from '../../../lib/runStore/files';
import { readChartJudgment } from './chartJudgment';
import { v2JudgeSettingsOf, v2JudgeSettingsSchema, type V2JudgeSettings } from './judgeSettings';

const recordSchema = z.object({
  tag: z.string(),
  /** Absent in records written before the started step existed: those were written when their rejudge finished. */
  state: z.enum(['started', 'finished']).default('finished'),
  startedAt: z.string().optional(),
  /** What the rejudge was asked to judge with; the judgments say what their workers judged with (`settings`). */
  requested: v2JudgeSettingsSchema.optional(),
  /** rejudge --judge-model, so that a resume judges with the same model. */
  judgeModel: z.string().optional(),
  tasks: z.array(z.string()).optional(),
  /** When the settings below were gathered from the judgments (the rejudge's end). */
  recordedAt: z.string().optional(),
  settings: z.array(z.object({ judge: v2JudgeSettingsSchema, tasks: z.array(z.string()) })),
  /** Tasks whose judgment records no settings (no call was made: nothing to judge, or no judge configured). */
  withoutCall: z.array(z.string()),
});
export type RejudgeSettingsRecord = z.output<typeof recordSchema>;

const RECORD_SUFFIX = '.judge.json';
export const rejudgeSettingsPath = (runDir: string, tag: string) => path.join(runDir, `${tag}${RECORD_SUFFIX}`);
const taskListPath = (runDir: string, tag: string) => path.join(runDir, `${tag}.json`);

const readRecord = (runDir: string, tag: string) => readJsonIfPresent(rejudgeSettingsPath(runDir, tag), recordSchema);

/**
 * Before the rejudge `tag` starts (its task list written): the `started` record, from the starting config's judge and
 * `judgeModel`.
 */
export async function recordRejudgeStart(
  runDir: string,
  tag: string,
  request: { config: Config; judgeModel?: string },
): Promise<RejudgeSettingsRecord> {
  const record: RejudgeSettingsRecord = {
    tag,
    state: 'started',
    startedAt: new Date().toISOString(),
    requested: v2JudgeSettingsOf(request.config.visionJudge, request.judgeModel),
    ...(request.judgeModel === undefined ? {} : { judgeModel: request.judgeModel }),
    tasks: await readRequiredJson(taskListPath(runDir, tag), z.array(z.string())),
    settings: [],
    withoutCall: [],
  };
  await writeJsonAtomic(rejudgeSettingsPath(runDir, tag), record);
  return record;
}

/** The rejudge of the run that started and never finished (killed mid-way), the first by tag; undefined when none. */
export async function unfinishedRejudge(runDir: string): Promise<{ tag: string; judgeModel?: string } | undefined> {
  const tags = (await namesInFolder(runDir))
    .filter((name) => name.endsWith(RECORD_SUFFIX))
    .map((name) => name.slice(0, -RECORD_SUFFIX.length))
    .sort();
  for (const tag of tags) {
    const record = await readRecord(runDir, tag);
    if (record?.state === 'started') return { tag, judgeModel: record.judgeModel };
  }
  return undefined;
}

/** A line for the run's summary while one of its rejudges is unfinished (none otherwise). */
export async function unfinishedRejudgeLines(runDir: string): Promise<string[]> {
  const unfinished = await unfinishedRejudge(runDir);
  if (!unfinished) return [];
  const tasks = (await readRecord(runDir, unfinished.tag))?.tasks?.length ?? 0;
  return [
    `  UNFINISHED: rejudge ${unfinished.tag} of ${tasks} Visualization task(s) stopped before its end: some of their ` +
      `judgments are new, the figures above are older; run \`sheetbench rejudge ${runDir}\` to finish it`,
  ];
}

/** After the rejudge `tag` ended: the `finished` record, from its task list and its tasks' judgments. */
export async function recordRejudgeSettings(runDir: string, tag: string): Promise<RejudgeSettingsRecord> {
  const ids = await readRequiredJson(taskListPath(runDir, tag), z.array(z.string()));
  const started = await readRecord(runDir, tag);
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
  const record: RejudgeSettingsRecord = {
    ...started,
    tag,
    state: 'finished',
    tasks: ids,
    recordedAt: new Date().toISOString(),
    settings: [...byKey.values()],
    withoutCall,
  };
  await writeJsonAtomic(rejudgeSettingsPath(runDir, tag), record);
  return record;
}
