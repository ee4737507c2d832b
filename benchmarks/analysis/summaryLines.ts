import path from 'node:path';
import { readJsonIfPresent } from '../../lib/json';
import { analysisSummarySchema, type AnalysisSummaryRead } from './summarySchema';

/** "92.3% (12/13)": the share of the answers' numbers found in their turns' tool outputs; "-" when they stated none. */
export function groundedCell(g: { numbers?: number; groundedNumbers?: number; groundedShare?: number | null }): string {
  // Summaries written before grounding have no counts.
  if (g.groundedShare === null || g.groundedShare === undefined) return '-';
  return `${(g.groundedShare * 100).toFixed(1)}% (${g.groundedNumbers}/${g.numbers})`;
}

/**
 * What `run` prints at the end of an analysis run: success, steps, tokens and cost per level and pattern, skips. None
 * before the run is summarized; a corrupt summary.json throws a CorruptFileError naming it.
 */
export async function analysisSummaryLines(runDir: string): Promise<string[]> {
  const s = await readJsonIfPresent(path.join(runDir, 'summary.json'), analysisSummarySchema);
  if (!s) return [];
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const row = (name: string, g: AnalysisSummaryRead['total']) =>
    `  ${name.padEnd(18)} ${`${g.passed}/${g.scored}`.padStart(6)} ${pct(g.successRate).padStart(7)}  grounded ${groundedCell(g)}  steps ${g.steps.toFixed(1)}  tools ${g.toolCalls.toFixed(1)}  tokens ${g.tokens.toFixed(0)}  $${g.costUsd.toFixed(4)}`;
  return [
    `success (${s.scored}/${s.requests} requests scored, pattern ${s.pattern}): ${s.passed} passed, ${pct(s.successRate)}`,
    ...Object.entries(s.byLevel).map(([level, g]) => row(level, g)),
    ...Object.entries(s.byPattern).map(([pattern, g]) => row(pattern, g)),
    ...s.skipped.map((k) => `skipped ${k.taskId}: ${k.reason}`),
    ...s.failed.map((f) => `failed ${f.taskId}: ${f.reason}`),
    `results and summary.json in ${runDir}`,
  ];
}
