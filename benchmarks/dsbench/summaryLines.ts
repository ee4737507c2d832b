import path from 'node:path';
import { readJsonOr } from '../../lib/runStore/files';
import { spendAndFailureLines } from '../report/runSummary';
import type { DsbenchSummary } from './metrics';

/** What `run` prints at the end of a DSBench run: accuracy (question and competition level, by answer type), spend, failures. */
export async function dsbenchSummaryLines(runDir: string): Promise<string[]> {
  const summary = await readJsonOr<DsbenchSummary | null>(path.join(runDir, 'summary.json'), null);
  if (!summary) return [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const ds = summary.dsbench;
  return [
    `accuracy (${summary.scored}/${summary.tasks} questions): ${pct(ds.accuracy)} (${ds.correct} correct), competition-level ${pct(ds.competitionAccuracy)}, unparseable judgments ${ds.unparseableJudgments}`,
    ...Object.entries(ds.byAnswerType).map(([type, s]) => `  ${type}: ${pct(s.accuracy)}  (${s.questions} questions)`),
    ...spendAndFailureLines(summary),
    `outputs and eval JSON in ${runDir}`,
  ];
}
