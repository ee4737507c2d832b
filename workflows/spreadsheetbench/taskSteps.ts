// The steps of a SpreadsheetBench task that every generation of its workflow takes the same way.
import { ApplicationFailure, CancellationScope, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { PreparedTask } from '../../activities/spreadsheetbench/task';
import { isSpreadsheetAgent } from '../../benchmarks/spreadsheetbench/agentSettings';
import { taskStageQuery, type TaskWorkflowInput } from '../../contracts/run';
import type { TaskResult } from '../../contracts/taskResult';
import { SA } from '../../lib/temporal/searchAttributes';
import { TaskBudget } from '../run/budget';
import { RunReport } from '../run/runReport';
import { failureMessage } from '../run/taskFailure';
import { executionBatch, type bookkeeping } from './activities';
import { AGENTS } from './agents';
import type { AgentOutcome } from './agents/agent';
import { createAgentContext, type InStage, type SessionUse } from './agents/context';
import { StageLedger } from './stageLedger';
import { FailureTypes } from '../../lib/failureTypes';

/** What a task keeps from its start to its end: the report to its run, the stage ledger (answered by the stage query), the budget. */
export function beginTask(input: TaskWorkflowInput) {
  const report = new RunReport(input.reportBy);
  const ledger = new StageLedger();
  const budget = new TaskBudget(input);
  setHandler(taskStageQuery, () => ({ stage: ledger.current, ...ledger.totals() }));
  return { report, ledger, budget, startedAt: Date.now(), task: { runDir: input.runDir, taskId: input.taskId } };
}

/** Runs a ledger stage, upserting the Stage search attribute when `upsert(previous, stage)` says so. */
export function stageRunner(upsert: (previous: string, stage: string) => boolean): InStage {
  return async (ledger, stage, fn) => {
    const previous = ledger.current;
    const record = ledger.begin(stage);
    if (upsert(previous, stage)) upsertSearchAttributes([{ key: SA.stage, value: stage }]);
    try {
      const value = await fn(record);
      ledger.end(record, 'ok');
      return value;
    } catch (err) {
      ledger.end(record, `failed: ${failureMessage(err)}`);
      throw err;
    }
  };
}

/** The run's agent on the prepared task; its kernel sessions are closed by `closeSessions` however it ends. */
export async function runAgent(
  input: TaskWorkflowInput,
  prepared: PreparedTask,
  ledger: StageLedger,
  budget: TaskBudget,
  inStage: InStage,
  closeSessions: (used: SessionUse) => Promise<void>,
): Promise<AgentOutcome> {
  const agent = isSpreadsheetAgent(input.agent) ? AGENTS[input.agent] : undefined;
  if (!agent) throw ApplicationFailure.nonRetryable(`unknown agent ${input.agent}`, FailureTypes.ConfigError);
  const sessionUse: SessionUse = { opened: false };
  try {
    return await agent(createAgentContext(input, prepared, ledger, inStage, budget, sessionUse));
  } finally {
    await closeSessions(sessionUse);
  }
}

/** OJ-style, in one activity: the final solution on each test case the agent did not run it on, each in a fresh sandbox. */
export async function runRemainingTestCases(
  input: TaskWorkflowInput,
  prepared: PreparedTask,
  outcome: AgentOutcome,
  ledger: StageLedger,
  inStage: InStage,
): Promise<string | undefined> {
  const runs = prepared.testCases
    .filter((tc) => !outcome.executedTestCases.includes(tc))
    .map((testCase) => ({ testCase, label: `final-tc${testCase}` }));
  if (!runs.length) return outcome.lastFeedback;
  const results = await inStage(ledger, 'execute', () =>
    executionBatch.executeOnTestCases({ runDir: input.runDir, taskId: input.taskId, code: outcome.solution, runs }),
  );
  const first = runs.findIndex((r) => r.testCase === 1);
  return outcome.lastFeedback ?? (first >= 0 ? results[first].feedback : undefined);
}

/** The task's result record (the scorer's verdicts, the ledger's spend). */
export function taskResult(
  input: TaskWorkflowInput,
  prepared: PreparedTask | undefined,
  score: { testCaseResults: number[]; soft: number; hard: number; reasons: (string | null)[] },
  failure: TaskResult['failure'],
  ledger: StageLedger,
  startedAt: number,
): TaskResult {
  return {
    taskId: input.taskId,
    id: prepared?.id ?? input.taskId,
    instructionType: prepared?.instructionType ?? 'unknown',
    testCaseResults: score.testCaseResults,
    soft: score.soft,
    hard: score.hard,
    failure,
    ...ledger.totals(),
    stages: ledger.stages,
    reasons: score.reasons,
    wallMs: Date.now() - startedAt,
  };
}

/** The run was cancelled: keep a record of where the task stood (no scoring), then end as cancelled. */
export async function recordCancelled(
  input: TaskWorkflowInput,
  ledger: StageLedger,
  prepared: PreparedTask | undefined,
  startedAt: number,
  record: Pick<typeof bookkeeping, 'recordTaskResult'>,
  cause: unknown,
): Promise<never> {
  await CancellationScope.nonCancellable(async () => {
    const cases = prepared?.testCases.length ?? 3;
    const score = { testCaseResults: Array(cases).fill(0), soft: 0, hard: 0, reasons: Array(cases).fill('cancelled') };
    const result = taskResult(
      input,
      prepared,
      score,
      { class: 'cancelled', message: `cancelled during ${ledger.current}` },
      ledger,
      startedAt,
    );
    await record.recordTaskResult({ runDir: input.runDir, result, conversations: [] });
    upsertSearchAttributes([{ key: SA.status, value: 'cancelled' }]);
  });
  throw cause;
}

/** The done summary the run counts. */
export function doneSummary(result: TaskResult, budgeted: boolean) {
  return {
    taskId: result.taskId,
    soft: result.soft,
    hard: result.hard,
    failureClass: result.failure?.class,
    usage: result.usage,
    costUsd: result.costUsd,
    llmCalls: result.llmCalls,
    budgeted,
  };
}
