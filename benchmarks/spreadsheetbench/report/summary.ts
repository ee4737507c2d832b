import type { StageRecord, TaskFailureClass } from '../../../contracts/taskResult';
import type { LoadedRun } from './load';
import { mean, sum } from '../../report/stats';
import { Spend } from '../../../lib/llm/usage';

/** Aggregates a report shows. Means are over finished tasks (a task with a failure counts, with its scores). */
export interface ScoreGroup {
  label: string;
  tasks: number;
  soft: number;
  hard: number;
}

export interface StageTotals {
  stage: string;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  wallMs: number;
}

export interface RunSummary {
  totalTasks: number;
  finishedTasks: number;
  pendingTasks: number;
  overall: ScoreGroup;
  byType: ScoreGroup[];
  byStage: StageTotals[];
  failures: { failureClass: TaskFailureClass; count: number }[];
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Of those, cached input and reasoning output tokens (0 when the provider reported none). */
  cachedInputTokens: number;
  reasoningTokens: number;
  costUsd: number;
}

export function summarizeRun(run: LoadedRun): RunSummary {
  const finished = run.tasks.flatMap((t) => (t.result ? [t.result] : []));
  const types = [...new Set(run.tasks.map((t) => t.task.instruction_type))].sort();
  return {
    totalTasks: run.tasks.length,
    finishedTasks: finished.length,
    pendingTasks: run.tasks.length - finished.length,
    overall: scoreGroup('all', finished),
    byType: types.map((type) =>
      scoreGroup(
        type,
        finished.filter((r) => r.instructionType === type),
      ),
    ),
    byStage: stageTotals(finished.flatMap((r) => r.stages)),
    failures: countFailures(finished.flatMap((r) => (r.failure ? [r.failure.class] : []))),
    llmCalls: sum(finished.map((r) => r.llmCalls)),
    inputTokens: sum(finished.map((r) => r.usage.inputTokens)),
    outputTokens: sum(finished.map((r) => r.usage.outputTokens)),
    cachedInputTokens: sum(finished.map((r) => r.usage.cachedInputTokens ?? 0)),
    reasoningTokens: sum(finished.map((r) => r.usage.reasoningTokens ?? 0)),
    costUsd: sum(finished.map((r) => r.costUsd)),
  };
}

function scoreGroup(label: string, results: { soft: number; hard: number }[]): ScoreGroup {
  return {
    label,
    tasks: results.length,
    soft: mean(results.map((r) => r.soft)),
    hard: mean(results.map((r) => r.hard)),
  };
}

function stageTotals(records: StageRecord[]): StageTotals[] {
  const byStage = new Map<string, { spend: Spend; wallMs: number }>();
  for (const r of records) {
    const t = byStage.get(r.stage) ?? { spend: Spend.zero(), wallMs: 0 };
    byStage.set(r.stage, { spend: Spend.add(t.spend, r), wallMs: t.wallMs + r.wallMs });
  }
  return [...byStage].map(([stage, { spend, wallMs }]) => ({
    stage,
    llmCalls: spend.llmCalls,
    inputTokens: spend.usage.inputTokens,
    outputTokens: spend.usage.outputTokens,
    costUsd: spend.costUsd,
    wallMs,
  }));
}

function countFailures(classes: TaskFailureClass[]): RunSummary['failures'] {
  const counts = new Map<TaskFailureClass, number>();
  for (const c of classes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([failureClass, count]) => ({ failureClass, count })).sort((a, b) => b.count - a.count);
}
