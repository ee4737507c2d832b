import path from 'node:path';
import { readJsonOr } from '../../lib/runStore/files';
import { readManifest } from '../../lib/runStore/manifest';
import { spendAndFailureLines, type RunSummary } from '../report/runSummary';
import { embeddedModelMeaning } from './embeddedMeaning';

/**
 * What `run` prints at the end of a SpreadsheetBench run: soft/hard overall and by instruction type, spend, failures;
 * for a run by an embedded model, what its scores mean.
 */
export async function spreadsheetSummaryLines(runDir: string): Promise<string[]> {
  const summary = await readJsonOr<RunSummary | null>(path.join(runDir, 'summary.json'), null);
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
