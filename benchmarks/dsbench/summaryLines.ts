import path from 'node:path';
import { readJsonIfPresent } from '../../lib/json';
import { spendAndFailureLines } from '../report/runSummary';
import { unfinishedRejudgeLines } from '../report/unfinishedRejudge';
import { dsbenchSummarySchema } from './summarySchema';

/**
 * What `run` prints at the end of a DSBench run: accuracy (question and competition level, by answer type), a rejudge
 * stopped before its end, spend, failures. None before the run is summarized; a corrupt summary.json throws a CorruptFileError naming it.
 */
export async function dsbenchSummaryLines(runDir: string): Promise<string[]> {
  const summary = await readJsonIfPresent(path.join(runDir, 'summary.json'), dsbenchSummarySchema);
  if (!summary) return [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const ds = summary.dsbench;
  return [
    `accuracy (${summary.scored}/${summary.tasks} questions): ${pct(ds.accuracy)} (${ds.correct} correct), competition-level ${pct(ds.competitionAccuracy)}, unparseable judgments ${ds.unparseableJudgments}`,
    ...Object.entries(ds.byAnswerType).map(([type, s]) => `  ${type}: ${pct(s.accuracy)}  (${s.questions} questions)`),
    ...(await unfinishedRejudgeLines(runDir, 'question(s)')),
    ...spendAndFailureLines(summary),
    `outputs and eval JSON in ${runDir}`,
  ];
}
