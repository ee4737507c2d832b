import type { RunManifest } from '../../lib/runStore/manifest';
import type { TaskResult } from '../../contracts/taskResult';
import { topFailures, type RunSummary, type ScoreLine } from '../report/runSummary';

/** Means over tasks of soft and hard, overall and per instruction type (as papers report them). */
export function summarizeRun(manifest: RunManifest, taskCount: number, results: TaskResult[]): RunSummary {
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
  const n = results.length;
  return {
    runId: manifest.runId,
    agent: manifest.agent,
    model: manifest.llm.model,
    tasks: taskCount,
    scored: n,
    failed: results.filter((r) => r.failure).length,
    overall: {
      tasks: n,
      soft: n ? results.reduce((s, r) => s + r.soft, 0) / n : 0,
      hard: n ? results.reduce((s, r) => s + r.hard, 0) / n : 0,
    },
    byType,
    llmCalls: results.reduce((s, r) => s + r.llmCalls, 0),
    usage: {
      inputTokens: results.reduce((s, r) => s + r.usage.inputTokens, 0),
      outputTokens: results.reduce((s, r) => s + r.usage.outputTokens, 0),
    },
    costUsd: results.reduce((s, r) => s + r.costUsd, 0),
    failureClasses,
    topFailures: topFailures(results),
  };
}
