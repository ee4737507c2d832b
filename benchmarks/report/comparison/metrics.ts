/**
 * A run's metrics with their uncertainty: mean soft and hard over attempts with task-clustered 95% intervals, pass@k
 * and pass^k for k = 1..K (hard success), cost and tokens, by group, and again without the excluded tasks.
 */
import { clusteredMean, passAtK, passHatK, type Interval } from '../statistics';
import type { RunOutcomes, TaskOutcomes } from './outcomes';

export interface GroupMetrics {
  group: string;
  tasks: number;
  soft: Interval;
  hard: Interval;
}

export interface RunMetrics {
  runId: string;
  benchmark: string;
  edition?: string;
  agent: string;
  model: string;
  scoringMode: string;
  /** Tasks with at least one recorded attempt. */
  tasks: number;
  epochs: number;
  attempts: number;
  soft: Interval;
  hard: Interval;
  /** pass@k for k = 1..K: over tasks with at least k attempts. */
  passAt: Record<string, number>;
  /** pass^k for k = 1..K: all k drawn attempts succeed. */
  passHat: Record<string, number>;
  costUsd: number;
  tokens: { input: number; output: number };
  llmCalls: number;
  failureClasses: Record<string, number>;
  byGroup: GroupMetrics[];
  /** The same scores without the excluded tasks (known data errors), when the run has any. */
  withoutExcluded?: { why: string; tasks: string[]; soft: Interval; hard: Interval };
  inProgress?: string;
  /** How its answers were judged, one field set per distinct setting (benchmarks with a judge). */
  judge?: Record<string, string>[];
}

const scored = (tasks: TaskOutcomes[]) => tasks.filter((t) => t.attempts.length > 0);

function intervals(tasks: TaskOutcomes[]): { soft: Interval; hard: Interval } {
  return {
    soft: clusteredMean(tasks.map((t) => t.attempts.map((a) => a.soft))),
    hard: clusteredMean(tasks.map((t) => t.attempts.map((a) => a.hard))),
  };
}

/** Mean over tasks with ≥ k attempts of the per-task estimator (hard = 1 is a success). */
function overK(
  tasks: TaskOutcomes[],
  maxK: number,
  estimator: (n: number, c: number, k: number) => number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (let k = 1; k <= maxK; k++) {
    const eligible = tasks.filter((t) => t.attempts.length >= k);
    if (!eligible.length) continue;
    out[String(k)] =
      eligible.reduce((s, t) => s + estimator(t.attempts.length, t.attempts.filter((a) => a.hard === 1).length, k), 0) /
      eligible.length;
  }
  return out;
}

export function runMetrics(run: RunOutcomes): RunMetrics {
  const tasks = scored(run.tasks);
  const attempts = tasks.flatMap((t) => t.attempts);
  const m = run.manifest;
  const groups = [...new Set(tasks.map((t) => t.group))].sort();
  const failureClasses: Record<string, number> = {};
  for (const a of attempts)
    if (a.failureClass) failureClasses[a.failureClass] = (failureClasses[a.failureClass] ?? 0) + 1;
  const excluded = run.excluded ? new Set(run.excluded.tasks) : undefined;
  return {
    runId: m.runId,
    benchmark: m.benchmark,
    ...(m.edition ? { edition: m.edition } : {}),
    agent: m.agent,
    model: m.llm.model,
    scoringMode: m.scoringMode,
    tasks: tasks.length,
    epochs: run.epochs,
    attempts: attempts.length,
    ...intervals(tasks),
    passAt: overK(tasks, run.epochs, passAtK),
    passHat: overK(tasks, run.epochs, passHatK),
    costUsd: attempts.reduce((s, a) => s + a.costUsd, 0),
    tokens: {
      input: attempts.reduce((s, a) => s + a.inputTokens, 0),
      output: attempts.reduce((s, a) => s + a.outputTokens, 0),
    },
    llmCalls: attempts.reduce((s, a) => s + a.llmCalls, 0),
    failureClasses,
    byGroup: groups.map((group) => {
      const inGroup = tasks.filter((t) => t.group === group);
      return { group, tasks: inGroup.length, ...intervals(inGroup) };
    }),
    ...(excluded && run.excluded
      ? {
          withoutExcluded: {
            why: run.excluded.why,
            tasks: run.excluded.tasks,
            ...intervals(tasks.filter((t) => !excluded.has(t.key))),
          },
        }
      : {}),
    ...(run.inProgress ? { inProgress: run.inProgress } : {}),
    ...(run.judge ? { judge: run.judge } : {}),
  };
}
