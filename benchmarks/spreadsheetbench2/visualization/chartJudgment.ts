/**
 * A Visualization task's chart judgment, `tasks/<key>/chart-judgment.json`, kept apart from its result: judging again
 * (`sheetbench rejudge`: a judge configured later, another model, an unparseable reply) rewrites this file only, and
 * finalize reads it into the run's chart figure. What a verdict means:
 * - `judged`: the vision model's score and accuracy (1 above 0.7), item by item (`missing`: items its reply left out);
 * - `unparseable`: a reply with no readable verdict (accuracy 0, as the release counts it; re-judged by rejudge);
 * - `no_output`, `no_charts`, `no_checklist`, `export_failed`: nothing a model could judge (accuracy 0, as the release
 *   counts its `error` and `skipped` tasks), `message` says why, naming the task;
 * - `judge_failed`: the model call failed after its retries (accuracy 0; re-judged by rejudge);
 * - `unjudged`: no vision judge is configured (or its key is not set): no accuracy at all, left out of the figure and
 *   reported as unjudged, never counted as a pass or a fail.
 */
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfPresent } from '../../../lib/json';
import { writeJsonAtomic } from '../../../lib/runStore/files';

export const CHART_VERDICTS = [
  'judged',
  'unparseable',
  'no_output',
  'no_charts',
  'no_checklist',
  'export_failed',
  'judge_failed',
  'unjudged',
] as const;
export type ChartVerdict = (typeof CHART_VERDICTS)[number];

/** Verdicts `sheetbench rejudge` judges again without --all. */
export const REJUDGED_VERDICTS: readonly ChartVerdict[] = ['unparseable', 'judge_failed', 'unjudged'];

const idSchema = z.union([z.number(), z.string()]);

export const chartJudgmentSchema = z.looseObject({
  taskId: z.string(),
  verdict: z.enum(CHART_VERDICTS),
  /** Absent when unjudged. */
  accuracy: z.union([z.literal(0), z.literal(1)]).optional(),
  score: z.number().optional(),
  message: z.string().optional(),
  model: z.string().optional(),
  /** The settings the judge's calls were made with (judgeSettings.ts); absent when no call was made. */
  judge: z.record(z.string(), z.unknown()).optional(),
  /** The first call's key and reply (the rounds: charts/round-<n>.json). */
  callKey: z.string().optional(),
  reply: z.string().optional(),
  /** Calls made: the first, and repairs asking for items left out. */
  rounds: z.number().optional(),
  items: z.array(z.object({ id: idSchema, pass: z.boolean(), reason: z.string().optional() })).optional(),
  missing: z.array(idSchema).optional(),
  images: z.array(z.object({ label: z.string(), sha256: z.string(), bytes: z.number() })).default([]),
  /** Charts the workbook has beyond `visionJudge.maxCharts` (not sent). */
  chartsLeftOut: z.number().optional(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  costUsd: z.number().optional(),
});
export type ChartJudgment = z.input<typeof chartJudgmentSchema>;

export const chartJudgmentPath = (runDir: string, key: string) =>
  path.join(runDir, 'tasks', key, 'chart-judgment.json');

export const readChartJudgment = (runDir: string, key: string) =>
  readJsonIfPresent(chartJudgmentPath(runDir, key), chartJudgmentSchema);

export const writeChartJudgment = (runDir: string, judgment: ChartJudgment) =>
  writeJsonAtomic(chartJudgmentPath(runDir, judgment.taskId), judgment);

/** The judgment in one line, for `show` and the task page. */
export function chartJudgmentNote(j: z.output<typeof chartJudgmentSchema>): string {
  const failed = (j.items ?? []).filter((i) => !i.pass).map((i) => `${i.id}${i.reason ? ` (${i.reason})` : ''}`);
  const detail =
    j.verdict === 'judged'
      ? `score ${j.score?.toFixed(2)}, accuracy ${j.accuracy}${failed.length ? `; failed items: ${failed.join(', ')}` : ''}${j.missing?.length ? `; items never answered: ${j.missing.join(', ')}` : ''}`
      : (j.message ?? `accuracy ${j.accuracy ?? 'none'}`);
  return `chart judgment (vision checklist > 0.7${j.model ? `, ${j.model}` : ''}): ${j.verdict}: ${detail}`;
}
