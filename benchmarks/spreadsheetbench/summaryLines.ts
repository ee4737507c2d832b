import path from 'node:path';
import { readJsonIfPresent } from '../../lib/json';
import { runSummarySchema } from '../report/runSummarySchema';
import { readManifest } from '../../lib/runStore/manifest';
import { spendAndFailureLines } from '../report/runSummary';
import { embeddedModelMeaning } from './embeddedMeaning';

/**
 * What `run` prints at the end of a SpreadsheetBench run: soft/hard overall and by instruction type, spend, failures;
 * for a run by an embedded model, what its scores mean.
 */
export async function spreadsheetSummaryLines(runDir: string): Promise<string[]> {
  const summary = await readJsonIfPresent(path.join(runDir, 'summary.json'), runSummarySchema);
  if (!summary) return [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  return [
    `scores (${summary.scored}/${summary.tasks} tasks): soft ${pct(summary.overall.soft)}  hard ${pct(summary.overall.hard)}`,
    ...Object.entries(summary.byType).map(
      ([type, s]) => `  ${type}: soft ${pct(s.soft)}  hard ${pct(s.hard)}  (${s.tasks} tasks)`,
    ),
    ...spendAndFailureLines(summary),
    `outputs and eval JSON in ${runDir}`,
    ...(await embeddedModelMeaning(runDir, await readManifest(runDir))),
  ];
}
