import { z } from 'zod';
import { readJsonIfPresent } from '../../lib/json';
import { RunLayout } from '../../lib/runStore/runLayout';
import { spendAndFailureLines } from '../report/runSummary';
import { runSummarySchema } from '../report/runSummarySchema';
import { v2EvalPath } from './finalize';

const totalsSchema = z.looseObject({
  total_tests: z.number(),
  missing_outputs: z.number(),
  regression_accuracy: z.number(),
  modification_accuracy: z.number(),
  accuracy: z.number(),
});

const summarySchema = runSummarySchema.extend({
  spreadsheetbench2: z.looseObject({
    all: totalsSchema,
    categories: z.record(z.string(), totalsSchema),
  }),
});

/** What `run` prints at the end of a v2 run: the official totals overall and per category, spend, failures. */
export async function v2SummaryLines(runDir: string): Promise<string[]> {
  const layout = new RunLayout(runDir);
  const summary = await readJsonIfPresent(layout.summaryPath, summarySchema);
  if (!summary) return [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const line = (name: string, t: z.infer<typeof totalsSchema>) =>
    `${name}: accuracy ${pct(t.accuracy)} of ${t.total_tests} tasks (regression ${pct(t.regression_accuracy)}, modification ${pct(t.modification_accuracy)}, missing outputs ${t.missing_outputs})`;
  const v2 = summary.spreadsheetbench2;
  return [
    line('overall', v2.all),
    ...Object.entries(v2.categories).map(([name, t]) => `  ${line(name, t)}`),
    ...spendAndFailureLines(summary),
    `official result files (evaluation.py's shape) in ${v2EvalPath(runDir, '<category>')}`,
  ];
}
