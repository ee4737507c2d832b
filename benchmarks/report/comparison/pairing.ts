/**
 * Two runs of the same dataset, edition and scoring mode, task by task: which tasks each passes (a paired table by hard
 * outcome, with task ids), McNemar's exact test on the discordant tasks, a paired bootstrap interval of the soft (and
 * hard) difference B − A, and the cost and token differences; the same again per group (instruction type).
 */
import { mcnemarExactP, pairedDifference, type Interval } from '../statistics';
import type { RunOutcomes, TaskOutcomes } from './outcomes';
import { judgeDifferences } from './judgeDifferences';

/** Two runs that cannot be paired; the message names both runs and the difference. */
export class PairingError extends Error {
  override name = 'PairingError';
}

export interface HardTable {
  bothPass: number;
  aOnly: number;
  bOnly: number;
  neither: number;
  mcnemarP: number;
  /** The task ids in each cell of the table. */
  taskIds: { bothPass: string[]; aOnly: string[]; bOnly: string[]; neither: string[] };
}

export interface PairGroup {
  group: string;
  tasks: number;
  hard: HardTable;
  softDiff: Interval;
}

export interface PairComparison {
  a: string;
  b: string;
  /** Tasks both runs recorded (the pairs); tasks only one has are listed, not paired. */
  tasks: number;
  onlyA: string[];
  onlyB: string[];
  hard: HardTable;
  /** Mean over paired tasks of B's task mean minus A's (positive: B scores higher). */
  softDiff: Interval;
  hardDiff: Interval;
  costUsd: { a: number; b: number; diff: number };
  tokens: { a: number; b: number; diff: number };
  byGroup: PairGroup[];
  /** What differs in how A and B were judged (their scores may differ for that alone); absent when nothing does. */
  judgeDiffers?: string[];
}

/** Why two runs cannot be compared task by task, or undefined when they can. */
export function pairingProblem(a: RunOutcomes, b: RunOutcomes): string | undefined {
  const ma = a.manifest;
  const mb = b.manifest;
  const differs = (what: string, x: unknown, y: unknown) =>
    `runs ${ma.runId} and ${mb.runId} have different ${what} (${String(x)} vs ${String(y)}): they cannot be paired`;
  if (ma.benchmark !== mb.benchmark) return differs('benchmarks', ma.benchmark, mb.benchmark);
  if ((ma.edition ?? '') !== (mb.edition ?? '')) return differs('editions', ma.edition ?? 'none', mb.edition ?? 'none');
  if (ma.datasetVersion !== mb.datasetVersion)
    return differs('datasets', `${ma.datasetDir} ${ma.datasetVersion}`, `${mb.datasetDir} ${mb.datasetVersion}`);
  if (ma.scoringMode !== mb.scoringMode) return differs('scoring modes', ma.scoringMode, mb.scoringMode);
  return undefined;
}

/** A task passes in a run when it passes on more than half its attempts (with one attempt: when it passes). */
const passes = (t: TaskOutcomes) => t.attempts.filter((x) => x.hard === 1).length * 2 > t.attempts.length;

function hardTable(pairs: [TaskOutcomes, TaskOutcomes][]): HardTable {
  const taskIds: HardTable['taskIds'] = { bothPass: [], aOnly: [], bOnly: [], neither: [] };
  for (const [ta, tb] of pairs) {
    const cell = passes(ta) ? (passes(tb) ? 'bothPass' : 'aOnly') : passes(tb) ? 'bOnly' : 'neither';
    taskIds[cell].push(ta.key);
  }
  return {
    bothPass: taskIds.bothPass.length,
    aOnly: taskIds.aOnly.length,
    bOnly: taskIds.bOnly.length,
    neither: taskIds.neither.length,
    mcnemarP: mcnemarExactP(taskIds.aOnly.length, taskIds.bOnly.length),
    taskIds,
  };
}

function diff(pairs: [TaskOutcomes, TaskOutcomes][], field: 'soft' | 'hard'): Interval {
  // B − A: pairedDifference computes first − second.
  return pairedDifference(
    pairs.map(([ta, tb]) => ({ a: tb.attempts.map((x) => x[field]), b: ta.attempts.map((x) => x[field]) })),
  );
}

const total = (tasks: TaskOutcomes[], f: (x: TaskOutcomes['attempts'][number]) => number) =>
  tasks.reduce((s, t) => s + t.attempts.reduce((u, x) => u + f(x), 0), 0);

export function pairRuns(a: RunOutcomes, b: RunOutcomes): PairComparison {
  const problem = pairingProblem(a, b);
  if (problem) throw new PairingError(problem);
  const recorded = (run: RunOutcomes) => new Map(run.tasks.filter((t) => t.attempts.length).map((t) => [t.key, t]));
  const inA = recorded(a);
  const inB = recorded(b);
  const pairs = [...inA.values()].flatMap((ta): [TaskOutcomes, TaskOutcomes][] =>
    inB.has(ta.key) ? [[ta, inB.get(ta.key)!]] : [],
  );
  const groups = [...new Set(pairs.map(([ta]) => ta.group))].sort();
  const cost = { a: total([...inA.values()], (x) => x.costUsd), b: total([...inB.values()], (x) => x.costUsd) };
  const tokens = {
    a: total([...inA.values()], (x) => x.inputTokens + x.outputTokens),
    b: total([...inB.values()], (x) => x.inputTokens + x.outputTokens),
  };
  const judgeDiffers = a.judge || b.judge ? judgeDifferences(a.judge ?? [], b.judge ?? []) : [];
  return {
    a: a.manifest.runId,
    b: b.manifest.runId,
    tasks: pairs.length,
    onlyA: [...inA.keys()].filter((k) => !inB.has(k)),
    onlyB: [...inB.keys()].filter((k) => !inA.has(k)),
    hard: hardTable(pairs),
    softDiff: diff(pairs, 'soft'),
    hardDiff: diff(pairs, 'hard'),
    costUsd: { ...cost, diff: cost.b - cost.a },
    tokens: { ...tokens, diff: tokens.b - tokens.a },
    byGroup: groups.map((group) => {
      const inGroup = pairs.filter(([ta]) => ta.group === group);
      return { group, tasks: inGroup.length, hard: hardTable(inGroup), softDiff: diff(inGroup, 'soft') };
    }),
    ...(judgeDiffers.length ? { judgeDiffers } : {}),
  };
}
