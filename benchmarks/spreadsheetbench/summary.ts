import type { RunManifest } from '../../lib/runStore/manifest';
import { taskKey } from '../../lib/runStore/taskRecord';
import type { TaskResult } from '../../contracts/taskResult';
import { spendOf, type RunSummary, type ScoreLine } from '../report/runSummary';
import { knownBadExclusion } from './knownBad';
import type { ScoringFacts } from './scoringFacts';

/**
 * Means of soft and hard, overall and per instruction type (as papers report them), over every recorded attempt (one
 * per task without repeats); the floor and unreachable test cases; and the scores without the edition's known-bad tasks.
 */
export function summarizeRun(
  manifest: RunManifest,
  taskCount: number,
  results: TaskResult[],
  facts?: ScoringFacts,
): RunSummary {
  const byType: Record<string, ScoreLine> = {};
  const failureClasses: Record<string, number> = {};
  for (const r of results) {
    const line = (byType[r.instructionType] ??= { tasks: 0, soft: 0, hard: 0 });
    line.tasks++;
    line.soft += r.soft;
    line.hard += r.hard;
    if (r.failure) failureClasses[r.failure.class] = (failureClasses[r.failure.class] ?? 0) + 1;
  }
  for (const line of Object.values(byType)) {
    line.soft /= line.tasks;
    line.hard /= line.tasks;
  }
  const epochs = manifest.epochs ?? 1;
  const n = results.length;
  return {
    runId: manifest.runId,
    agent: manifest.agent,
    model: manifest.llm.model,
    tasks: taskCount,
    ...(epochs > 1 ? { epochs, attempts: taskCount * epochs } : {}),
    scored: n,
    ...spendOf(results),
    overall: scoreLine(results),
    byType,
    failureClasses,
    ...(facts?.floor ? { floor: facts.floor } : {}),
    ...(facts?.unreachable.length ? { unreachable: facts.unreachable } : {}),
    ...withoutKnownBad(manifest, results),
  };
}

function scoreLine(results: TaskResult[]): ScoreLine {
  const n = results.length;
  return {
    tasks: n,
    soft: n ? results.reduce((s, r) => s + r.soft, 0) / n : 0,
    hard: n ? results.reduce((s, r) => s + r.hard, 0) / n : 0,
  };
}

/** The scores again without the tasks reported wrong upstream, when the run has any (benchmarks/spreadsheetbench/knownBad.ts). */
function withoutKnownBad(manifest: RunManifest, results: TaskResult[]): Pick<RunSummary, 'excluded'> {
  const exclusion = knownBadExclusion(manifest.edition);
  const bad = new Set(exclusion?.ids ?? []);
  const inRun = [...new Set(results.map((r) => taskKey(r.id)).filter((k) => bad.has(k)))];
  if (!exclusion || !inRun.length) return {};
  return {
    excluded: { why: exclusion.why, tasks: inRun, overall: scoreLine(results.filter((r) => !bad.has(taskKey(r.id)))) },
  };
}
