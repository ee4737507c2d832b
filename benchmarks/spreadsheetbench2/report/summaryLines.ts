import path from 'node:path';
import { readJsonIfPresent } from '../../../lib/json';
import { runSummarySchema } from '../../report/runSummarySchema';
import { figureLines, spendAndFailureLines } from '../../report/runSummary';
import { chartSummaryLines, chartSummarySchema } from '../visualization/chartSummary';
import { unfinishedRejudgeLines } from '../../report/unfinishedRejudge';

/**
 * What `run` prints at the end of a SpreadsheetBench 2 run: accuracy overall and per category, the release's figures
 * (accuracy, regression and modification accuracy, per category), the Visualization charts' judging (judged or
 * UNJUDGED, and why; a rejudge stopped before its end), spend, failures. None before it is summarized.
 */
export async function v2SummaryLines(runDir: string): Promise<string[]> {
  const summary = await readJsonIfPresent(path.join(runDir, 'summary.json'), runSummarySchema);
  if (!summary) return [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  return [
    `accuracy (${summary.scored}/${summary.tasks} tasks): ${pct(summary.overall.hard)}`,
    ...Object.entries(summary.byType).map(([c, s]) => `  ${c}: ${pct(s.hard)}  (${s.tasks} tasks)`),
    ...figureLines(summary.figures ?? []),
    ...chartSummaryLines(chartSummarySchema.optional().parse(summary.charts)),
    ...(await unfinishedRejudgeLines(runDir, 'Visualization task(s)')),
    ...spendAndFailureLines(summary),
    `outputs and official result files (one per category) in ${runDir}`,
  ];
}
