import { upsertSearchAttributes } from '@temporalio/workflow';
import type { TurnSummary } from '../../contracts/conversation';
import type { TaskDoneSignal, TaskWorkflowInput } from '../../contracts/run';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { SA } from '../../lib/temporal/searchAttributes';
import { bookkeeping } from './activities';

/** How a request ended before scoring: skipped (with why), failed (with the failure), or its conversation's turn. */
export interface RequestOutcome {
  skipped?: string;
  failure?: { class: TaskFailureClass; message: string };
  turn?: { dir: string; summary: TurnSummary };
}

/** Scores the request's turn against its answer (the activity reads the answer; the agent never saw it) and records it: the done summary. */
export async function scoreRequest(
  input: TaskWorkflowInput,
  startedAt: number,
  outcome: RequestOutcome,
): Promise<TaskDoneSignal> {
  const { skipped, turn } = outcome;
  stage('score');
  const { pass, status, failureClass } = await bookkeeping.recordAnalysisResult({
    runDir: input.runDir,
    taskId: input.taskId,
    wallMs: Date.now() - startedAt,
    ...outcome,
  });
  const usage = {
    inputTokens: turn?.summary.usage.inputTokens ?? 0,
    outputTokens: turn?.summary.usage.outputTokens ?? 0,
  };
  const costUsd = turn?.summary.usage.costUsd ?? 0;
  upsertSearchAttributes([
    {
      key: SA.status,
      value: status === 'scored' ? 'scored' : status === 'skipped' ? 'skipped' : `failed:${failureClass ?? 'internal'}`,
    },
    { key: SA.costUsd, value: costUsd },
  ]);
  return {
    taskId: input.taskId,
    soft: pass ? 1 : 0,
    hard: pass ? 1 : 0,
    // A skipped request did not pass: the run counts it apart from the passes, with the reason in its result file.
    failureClass: failureClass ?? (skipped ? 'dataset' : undefined),
    usage,
    costUsd,
    llmCalls: turn?.summary.steps ?? 0,
  };
}

export function stage(name: string): void {
  upsertSearchAttributes([{ key: SA.stage, value: name }]);
}
