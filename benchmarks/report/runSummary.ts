import type { TaskResult } from '../../contracts/taskResult';
import { TokenUsage } from '../../lib/llm/usage';
import { tokenPartsText } from './tokenParts';

/**
 * summary.json of a run scored per task (SpreadsheetBench: soft/hard; DSBench: soft = hard = accuracy): the shape
 * `run` prints, the runs view lists and `report` reads.
 */
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
  /** Summed over the tasks, cached and reasoning tokens too when the provider reported them. */
  usage: TokenUsage;
  costUsd: number;
  failureClasses: Record<string, number>;
  /** The most common failure messages (absent in summaries written before it existed). */
  topFailures?: FailureCount[];
  /** Runs with repeats: attempts per task and planned attempts (`scored` counts attempts). */
  epochs?: number;
  attempts?: number;
  /** What the unchanged inputs score (the do-nothing agent), where the benchmark records it. */
  floor?: { tasks: number; testCases: number; passedByInput: number; soft: number; hard: number };
  /** Test cases no output can pass under the run's scoring mode, with the cause. */
  unreachable?: { taskId: string; testCase: number; reason: string }[];
  /** The scores without tasks set aside (e.g. data errors reported upstream), when the run has any. */
  excluded?: { why: string; tasks: string[]; overall: ScoreLine };
  /** A benchmark's own figures beside soft/hard (SpreadsheetBench 2: accuracy, regression and modification accuracy), overall and by group. */
  figures?: Figure[];
}

export interface Figure {
  name: string;
  overall: number;
  byGroup: Record<string, number>;
}

export interface FailureCount {
  class: string;
  message: string;
  tasks: number;
}

const TOP_FAILURES = 5;

/** Failure messages by how many tasks ended with them; numbers (task ids, counts) vary per task, so they are folded. */
export function topFailures(results: readonly Pick<TaskResult, 'failure'>[], limit = TOP_FAILURES): FailureCount[] {
  const counts = new Map<string, FailureCount>();
  for (const r of results) {
    if (!r.failure) continue;
    const message = r.failure.message.split('\n')[0].slice(0, 300);
    const key = `${r.failure.class}|${message.replace(/\d+/g, 'N')}`;
    const entry = counts.get(key) ?? { class: r.failure.class, message, tasks: 0 };
    entry.tasks++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.tasks - a.tasks).slice(0, limit);
}

/** A benchmark's own figures, one line each: overall, then by group. */
export function figureLines(figures: readonly Figure[]): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  return figures.map(
    (f) =>
      `${f.name} ${pct(f.overall)}${
        Object.keys(f.byGroup).length
          ? ` (${Object.entries(f.byGroup)
              .map(([g, v]) => `${g} ${pct(v)}`)
              .join(', ')})`
          : ''
      }`,
  );
}

/** The lines every such summary ends with: spend, failures and the commonest failure messages. */
export function spendAndFailureLines(summary: RunSummary): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const floor = summary.floor;
  const excluded = summary.excluded;
  return [
    ...(floor
      ? [
          `floor (unchanged inputs, the do-nothing agent): ${floor.passedByInput} of ${floor.testCases} test cases pass; soft ${pct(floor.soft)}  hard ${pct(floor.hard)}`,
        ]
      : []),
    ...(summary.unreachable?.length
      ? [
          `unreachable under this scoring mode: ${summary.unreachable.map((u) => `${u.taskId}#${u.testCase}`).join(', ')}`,
        ]
      : []),
    ...(excluded
      ? [
          `without ${excluded.tasks.length} ${excluded.why} (${excluded.tasks.join(', ')}): soft ${pct(excluded.overall.soft)}  hard ${pct(excluded.overall.hard)} (${excluded.overall.tasks})`,
        ]
      : []),
    `LLM calls ${summary.llmCalls}, tokens in ${summary.usage.inputTokens} out ${summary.usage.outputTokens}${tokenPartsText(summary.usage)}, cost $${summary.costUsd.toFixed(4)}`,
    ...(summary.failed ? [`tasks with failures: ${summary.failed} ${JSON.stringify(summary.failureClasses)}`] : []),
    ...(summary.topFailures ?? []).map((f) => `  ${f.tasks} × ${f.class}: ${f.message}`),
  ];
}

/** What a run's results spent and how they failed, as every benchmark's summary reports it. */
export function spendOf(
  results: readonly Pick<TaskResult, 'failure' | 'llmCalls' | 'usage' | 'costUsd'>[],
): Pick<RunSummary, 'failed' | 'llmCalls' | 'usage' | 'costUsd' | 'topFailures'> {
  return {
    failed: results.filter((r) => r.failure).length,
    llmCalls: results.reduce((s, r) => s + r.llmCalls, 0),
    usage: results.reduce((s, r) => TokenUsage.add(s, r.usage), TokenUsage.zero()),
    costUsd: results.reduce((s, r) => s + r.costUsd, 0),
    topFailures: topFailures(results),
  };
}
