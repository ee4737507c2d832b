/**
 * A Visualization task's output judged on its charts and recorded in `tasks/<key>/chart-judgment.json` (the verdict,
 * the model and the digest of every image sent), apart from the result: judging again (a later model, an unparseable
 * reply) rewrites this file only, and finalize reads it into the run's chart figure. Nothing of the agent is re-run.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfPresent } from '../../../lib/json';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import { exportChartImages } from './chartImages';
import { judgeCharts, type ChecklistVerdict, type VisionEndpoint } from './checklistJudge';

export const chartJudgmentSchema = z.looseObject({
  taskId: z.string(),
  verdict: z.enum(['judged', 'unparseable', 'no_charts']),
  score: z.number().optional(),
  accuracy: z.union([z.literal(0), z.literal(1)]),
  model: z.string(),
  reply: z.string().optional(),
  items: z.array(z.looseObject({ item: z.number(), satisfied: z.boolean(), why: z.string().optional() })).optional(),
  images: z.array(z.looseObject({ label: z.string(), sha256: z.string(), bytes: z.number() })),
});
export type ChartJudgment = z.infer<typeof chartJudgmentSchema>;

export const chartJudgmentPath = (runDir: string, key: string) =>
  path.join(runDir, 'tasks', key, 'chart-judgment.json');

export interface JudgeOutputInput {
  runDir: string;
  key: string;
  instruction: string;
  checklist: readonly string[];
  /** The (recalculated) output workbook. */
  output: string;
  endpoint: VisionEndpoint;
}

export async function judgeVisualizationOutput(input: JudgeOutputInput): Promise<ChartJudgment> {
  const charts = await exportChartImages(input.output);
  const verdict: ChecklistVerdict = await judgeCharts(
    input.endpoint,
    { instruction: input.instruction, checklist: input.checklist },
    charts,
  );
  const judgment: ChartJudgment = {
    taskId: input.key,
    ...verdict,
    images: charts.map((c) => ({
      label: c.label,
      sha256: createHash('sha256').update(c.png).digest('hex'),
      bytes: c.png.length,
    })),
  };
  await writeJsonAtomic(chartJudgmentPath(input.runDir, input.key), judgment);
  return judgment;
}

export const readChartJudgment = (runDir: string, key: string) =>
  readJsonIfPresent(chartJudgmentPath(runDir, key), chartJudgmentSchema);
