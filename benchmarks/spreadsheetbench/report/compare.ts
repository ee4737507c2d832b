import type { LoadedRun } from './load';
import { summarizeRun } from './summary';
import type { RunSummary } from './summary';

/** How one task changed from the baseline run to this run. A task "passes" when all its test cases pass (hard = 1). */
export type TaskChange =
  'fixed' | 'broken' | 'improved' | 'regressed' | 'unchanged' | 'only-here' | 'only-baseline' | 'pending';

export interface TaskDiff {
  key: string;
  change: TaskChange;
  baseline?: { soft: number; hard: number };
  current?: { soft: number; hard: number };
}

export interface RunComparison {
  baselineRunId: string;
  currentRunId: string;
  baselineDir: string;
  current: RunSummary;
  baseline: RunSummary;
  delta: { soft: number; hard: number; costUsd: number; tokens: number; llmCalls: number };
  tasks: TaskDiff[];
  counts: Record<TaskChange, number>;
}

export function compareRuns(current: LoadedRun, baseline: LoadedRun): RunComparison {
  const cur = summarizeRun(current);
  const base = summarizeRun(baseline);
  const tasks = diffTasks(current, baseline);
  const counts = Object.fromEntries(CHANGES.map((c) => [c, tasks.filter((t) => t.change === c).length])) as Record<
    TaskChange,
    number
  >;
  return {
    baselineRunId: baseline.manifest.runId,
    currentRunId: current.manifest.runId,
    baselineDir: baseline.dir,
    current: cur,
    baseline: base,
    delta: {
      soft: cur.overall.soft - base.overall.soft,
      hard: cur.overall.hard - base.overall.hard,
      costUsd: cur.costUsd - base.costUsd,
      tokens: cur.inputTokens + cur.outputTokens - (base.inputTokens + base.outputTokens),
      llmCalls: cur.llmCalls - base.llmCalls,
    },
    tasks,
    counts,
  };
}

export const CHANGES: readonly TaskChange[] = [
  'fixed',
  'broken',
  'improved',
  'regressed',
  'unchanged',
  'only-here',
  'only-baseline',
  'pending',
];

function diffTasks(current: LoadedRun, baseline: LoadedRun): TaskDiff[] {
  const scores = (run: LoadedRun) =>
    new Map(
      run.tasks.map((t) => [t.key, t.result ? { soft: t.result.soft, hard: t.result.hard } : undefined] as const),
    );
  const cur = scores(current);
  const base = scores(baseline);
  const keys = [...cur.keys(), ...[...base.keys()].filter((k) => !cur.has(k))];
  return keys.map((key) => {
    const c = cur.get(key);
    const b = base.get(key);
    return { key, change: classify(cur.has(key), base.has(key), c, b), current: c, baseline: b };
  });
}

function classify(
  inCurrent: boolean,
  inBaseline: boolean,
  c: { soft: number; hard: number } | undefined,
  b: { soft: number; hard: number } | undefined,
): TaskChange {
  if (!inBaseline) return 'only-here';
  if (!inCurrent) return 'only-baseline';
  if (!c || !b) return 'pending';
  const passes = (s: { hard: number }) => s.hard === 1;
  if (passes(c) && !passes(b)) return 'fixed';
  if (!passes(c) && passes(b)) return 'broken';
  if (c.soft > b.soft) return 'improved';
  if (c.soft < b.soft) return 'regressed';
  return 'unchanged';
}
