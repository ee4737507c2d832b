/**
 * `sheetbench compare`'s domain: one run → its metrics; several → a leaderboard, and each run after the first paired
 * with the first (same dataset, edition and scoring mode, or refused naming the difference). The JSON shape is a
 * contract scripts and CI read: fields are added, never renamed.
 */
import { runMetrics, type RunMetrics } from './metrics';
import { pairRuns, pairingProblem, PairingError, type PairComparison } from './pairing';
import type { RunOutcomes } from './outcomes';

export {
  loadRunOutcomes,
  RunOutcomesError,
  type RunOutcomes,
  type TaskOutcomes,
  type AttemptOutcome,
  type LoadOptions,
} from './outcomes';
export { runMetrics, type RunMetrics, type GroupMetrics } from './metrics';
export { judgeDifferences, judgeSettingsText, type JudgeFields } from './judgeDifferences';
export { pairRuns, pairingProblem, PairingError, type PairComparison, type HardTable, type PairGroup } from './pairing';

export interface Comparison {
  runs: RunMetrics[];
  pairs: PairComparison[];
}

export function compareRunOutcomes(runs: RunOutcomes[]): Comparison {
  if (!runs.length) throw new Error('compare needs at least one run');
  const [first, ...others] = runs;
  for (const other of others) {
    const problem = pairingProblem(first, other);
    if (problem) throw new PairingError(problem);
  }
  return { runs: runs.map(runMetrics), pairs: others.map((other) => pairRuns(first, other)) };
}
