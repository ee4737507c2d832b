/**
 * What the report says beyond the scores: their 95% intervals (task bootstrap), pass@k/pass^k for a run with repeats,
 * the floor (what the unchanged inputs score), test cases no output can reach, and the scores without the edition's
 * known-bad tasks. Plain text lines, which the Markdown and HTML renderers only escape and wrap.
 */
import { loadRunOutcomes, runMetrics, type RunMetrics } from '../../report/comparison';
import { knownBadExclusion } from '../knownBad';
import { scoringFacts, type ScoringFacts } from '../scoringFacts';
import type { LoadedRun } from './load';

export interface RunInsight {
  metrics: RunMetrics;
  facts: ScoringFacts;
}

export async function runInsight(run: LoadedRun): Promise<RunInsight> {
  const outcomes = await loadRunOutcomes(run.dir, { exclude: knownBadExclusion(run.manifest.edition) });
  const facts = await scoringFacts(
    run.dir,
    outcomes.tasks.flatMap((t) => (t.attempts[0] ? [{ taskKey: t.key, key: t.attempts[0].key }] : [])),
  );
  return { metrics: runMetrics(outcomes), facts };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const interval = (i: RunMetrics['soft']) => `${pct(i.mean)} [${pct(i.ci95[0])}, ${pct(i.ci95[1])}]`;

export function insightLines(insight: RunInsight): string[] {
  const { metrics: m, facts } = insight;
  const ks = (r: Record<string, number>, name: string) =>
    Object.entries(r)
      .map(([k, v]) => `${name}${k} ${pct(v)}`)
      .join(', ');
  return [
    `Soft ${interval(m.soft)}, hard ${interval(m.hard)} over ${m.attempts} attempts of ${m.tasks} tasks (95% intervals: bootstrap over tasks).`,
    ...(m.epochs > 1
      ? [`Repeats (${m.epochs} attempts a task): ${ks(m.passAt, 'pass@')}; ${ks(m.passHat, 'pass^')}.`]
      : []),
    facts.floor
      ? `Floor: the unchanged inputs (a do-nothing agent) already pass ${facts.floor.passedByInput} of ${facts.floor.testCases} test cases (soft ${pct(facts.floor.soft)}, hard ${pct(facts.floor.hard)}).`
      : 'Floor: not recorded (results written before cell diffs).',
    ...(facts.unreachable.length
      ? [
          `Unreachable under ${m.scoringMode} scoring (no output can pass): ${facts.unreachable.map((u) => `${u.taskId} #${u.testCase} (${u.reason})`).join('; ')}.`,
        ]
      : []),
    ...(m.withoutExcluded
      ? [
          `Without the ${m.withoutExcluded.tasks.length} ${m.withoutExcluded.why} (${m.withoutExcluded.tasks.join(', ')}): soft ${interval(m.withoutExcluded.soft)}, hard ${interval(m.withoutExcluded.hard)}.`,
        ]
      : []),
  ];
}
