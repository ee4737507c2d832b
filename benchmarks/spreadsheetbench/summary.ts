import type { RunManifest } from '../../lib/runStore/manifest';
import type { TaskResult } from '../../contracts/taskResult';

export interface ScoreLine {
  tasks: number;
  soft: number;
  hard: number;
}

export interface RunSummary {
  runId: string;
  agent: string;
  model: string;
  tasks: number;
  scored: number;
  failed: number;
  overall: ScoreLine;
  byType: Record<string, ScoreLine>;
  llmCalls: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  failureClasses: Record<string, number>;
  /** The most common failure messages (absent in summaries written before it existed). */
  topFailures?: FailureCount[];
}

export interface FailureCount {
  class: string;
  message: string;
  tasks: number;
}

const TOP_FAILURES = 5;

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

/** Failure messages by how many tasks ended with them; numbers (task ids, counts) vary per task, so they are folded. */
export function topFailures(results: readonly TaskResult[], limit = TOP_FAILURES): FailureCount[] {
  const counts = new Map<string, FailureCount>();
  for (const r of results) {
    if (!r.failure) continue;
    const message = r.failure.message.split('\n')[0]!.slice(0, 300);
    const key = `${r.failure.class}|${message.replace(/\d+/g, 'N')}`;
    const entry = counts.get(key) ?? { class: r.failure.class, message, tasks: 0 };
    entry.tasks++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.tasks - a.tasks).slice(0, limit);
}
