/**
 * The run's chart judging, from each Visualization task's chart-judgment.json: the chart accuracy figure (the
 * release's ACC: tasks whose score is above 0.7 over the tasks judged, a task with nothing to judge counting 0), the
 * tasks left unjudged (no judge configured, its key unset, or no judgment yet) and why, which never count as a pass or
 * a fail, and the judge's spend (apart from the agent's). Written into summary.json as `charts`.
 */
import { z } from 'zod';
import { taskKey } from '../../../lib/runStore/taskRecord';
import { TokenUsage } from '../../../lib/llm/usage';
import type { Figure } from '../../report/runSummary';
import type { V2Run } from '../run/files';
import { VISUALIZATION_CATEGORY } from '../dataset';
import { readChartJudgment, type ChartJudgment } from './chartJudgment';

export const CHART_FIGURE = 'chart accuracy (vision checklist > 0.7)';

export const chartSummarySchema = z.looseObject({
  tasks: z.number(),
  judged: z.number(),
  accuracy: z.number().optional(),
  unjudged: z.number(),
  unjudgedWhy: z.array(z.string()),
  byVerdict: z.record(z.string(), z.number()),
  judgeCalls: z.number(),
  judgeCostUsd: z.number(),
  judgeUsage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
});
export type ChartSummary = z.infer<typeof chartSummarySchema>;

function summaryOf(judgments: (ChartJudgment | undefined)[]): ChartSummary {
  const counted = judgments.filter((j) => j?.accuracy !== undefined) as (ChartJudgment & { accuracy: 0 | 1 })[];
  const unjudged = judgments.filter((j) => j?.accuracy === undefined);
  const byVerdict: Record<string, number> = {};
  for (const j of judgments)
    byVerdict[j?.verdict ?? 'not_judged_yet'] = (byVerdict[j?.verdict ?? 'not_judged_yet'] ?? 0) + 1;
  const called = judgments.filter((j) => j?.usage);
  return {
    tasks: judgments.length,
    judged: counted.length,
    ...(counted.length ? { accuracy: counted.reduce((s, j) => s + j.accuracy, 0) / counted.length } : {}),
    unjudged: unjudged.length,
    unjudgedWhy: [...new Set(unjudged.map((j) => j?.message ?? 'no chart judgment recorded yet').map(reasonOf))],
    byVerdict,
    judgeCalls: called.reduce((n, j) => n + (j?.rounds ?? 1), 0),
    judgeCostUsd: called.reduce((s, j) => s + (j?.costUsd ?? 0), 0),
    judgeUsage: called.reduce((s, j) => TokenUsage.add(s, { ...TokenUsage.zero(), ...j!.usage! }), TokenUsage.zero()),
  };
}

/** The reason without the task's name (`task 7: not judged: <reason>`), so one reason is listed once. */
const reasonOf = (message: string) => message.replace(/^task .*?: not judged: /, '');

/** The chart summary and figure of a run with Visualization tasks; nothing for a run without any. */
export async function chartJudgingOf(run: V2Run): Promise<{ charts?: ChartSummary; figures: Figure[] }> {
  const tasks = run.tasks.filter((t) => t.category === VISUALIZATION_CATEGORY);
  if (!tasks.length) return { figures: [] };
  const charts = summaryOf(await Promise.all(tasks.map((t) => readChartJudgment(run.layout.root, taskKey(t.id)))));
  const figures =
    charts.accuracy === undefined
      ? []
      : [{ name: CHART_FIGURE, overall: charts.accuracy, byGroup: { [VISUALIZATION_CATEGORY]: charts.accuracy } }];
  return { charts, figures };
}

/** The lines `run` and `rejudge` print about chart judging. */
export function chartSummaryLines(charts: ChartSummary | undefined): string[] {
  if (!charts) return [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const lines = [
    `Visualization charts: ${charts.judged} of ${charts.tasks} tasks judged${charts.accuracy === undefined ? '' : `, chart accuracy ${pct(charts.accuracy)}`}` +
      ` (${Object.entries(charts.byVerdict)
        .map(([v, n]) => `${v} ${n}`)
        .join(', ')}); judge: ${charts.judgeCalls} calls, $${charts.judgeCostUsd.toFixed(4)}`,
  ];
  if (charts.unjudged)
    lines.push(
      `  UNJUDGED: ${charts.unjudged} Visualization task(s) have no chart verdict (not counted as pass or fail): ${charts.unjudgedWhy.join('; ')}`,
    );
  return lines;
}
