import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { SA } from '../../lib/temporal/searchAttributes';
import type { TaskResult } from '../../contracts/taskResult';
import type { PreparedTask } from '../../activities/spreadsheetbench/task';
import { bookkeepingCall, execution, executionBatch, recalcOn, scoringCall } from './activities';
import { taskStageQuery, type TaskCompletion, type TaskWorkflowInput } from '../../contracts/run';
import { RunReport } from '../run/runReport';
import { classifyFailure, failureMessage } from '../run/taskFailure';
import { StageLedger } from './stageLedger';
import { TaskBudget } from '../run/budget';
import { AGENTS } from './agents';
import { isSpreadsheetAgent } from '../../benchmarks/spreadsheetbench/agentSettings';
import type { AgentOutcome } from './agents/agent';
import { closeAgentSessions, createAgentContext, type InStage, type SessionUse } from './agents/context';
import { TaskPaths } from './taskPaths';

/**
 * One SpreadsheetBench task: agent → solution → execute on every test case (OJ style) → recalculate → score → record,
 * then report to the run. Every LLM call, execution, recalculation and scoring is its own activity.
 */
export async function spreadsheetTask(input: TaskWorkflowInput): Promise<TaskResult & TaskCompletion> {
  const paths = new TaskPaths();
  const report = new RunReport(input.reportBy);
  const inStage = stageRunner(paths);
  const ledger = new StageLedger();
  const budget = new TaskBudget(input);
  const startedAt = Date.now();
  setHandler(taskStageQuery, () => ({ stage: ledger.current, ...ledger.totals() }));

  let failure: TaskResult['failure'];
  let prepared: PreparedTask | undefined;
  let outcome: AgentOutcome | undefined;
  let finalFeedback: string | undefined;
  try {
    prepared = await inStage(ledger, 'prepare', () => bookkeepingCall(paths).prepareTask({ runDir: input.runDir, taskId: input.taskId }));
    outcome = await runAgent(input, prepared, ledger, budget, paths, inStage);
    finalFeedback = await runOnTestCases(input, prepared, outcome, ledger, paths, inStage);
    if (outcome.problem) failure = { class: 'model', message: outcome.problem };
  } catch (err) {
    if (isCancellation(err)) return recordCancelled(input, ledger, prepared, startedAt, paths, err);
    failure = classifyFailure(err);
  }
  if (prepared && input.recalcTaskQueue) await recalcOutputs(input, prepared, ledger, paths, inStage);
  const score = await inStage(ledger, 'score', () => scoringCall(paths).scoreTask({ runDir: input.runDir, taskId: input.taskId }));
  const result: TaskResult = {
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
  await bookkeepingCall(paths).recordTaskResult({
    runDir: input.runDir,
    result,
    conversations: outcome ? [outcome.conversation] : [],
    official: outcome ? { conversation: outcome.conversation, finalFeedback, solution: outcome.solution } : undefined,
  });
  return { ...result, ...(await reportResult(result, input.budgeted ?? false, paths, report)) };
}

/** The run was cancelled: keep a record of where the task stood (no scoring), then end as cancelled. */
async function recordCancelled(input: TaskWorkflowInput, ledger: StageLedger, prepared: PreparedTask | undefined, startedAt: number, paths: TaskPaths, cause: unknown): Promise<never> {
  await CancellationScope.nonCancellable(async () => {
    const cases = prepared?.testCases.length ?? 3;
    const result: TaskResult = {
      taskId: input.taskId,
      id: prepared?.id ?? input.taskId,
      instructionType: prepared?.instructionType ?? 'unknown',
      testCaseResults: Array(cases).fill(0),
      soft: 0,
      hard: 0,
      failure: { class: 'cancelled', message: `cancelled during ${ledger.current}` },
      ...ledger.totals(),
      stages: ledger.stages,
      reasons: Array(cases).fill('cancelled'),
      wallMs: Date.now() - startedAt,
    };
    await bookkeepingCall(paths).recordTaskResult({ runDir: input.runDir, result, conversations: [] });
    await upsertSearchAttributes([{ key: SA.status, value: 'cancelled' }]);
  });
  throw cause;
}

async function runAgent(input: TaskWorkflowInput, prepared: PreparedTask, ledger: StageLedger, budget: TaskBudget, paths: TaskPaths, inStage: InStage): Promise<AgentOutcome> {
  const agent = isSpreadsheetAgent(input.agent) ? AGENTS[input.agent] : undefined;
  if (!agent) throw ApplicationFailure.nonRetryable(`unknown agent ${input.agent}`, 'ConfigError');
  const sessionUse: SessionUse = { opened: false };
  try {
    return await agent(createAgentContext(input, prepared, ledger, inStage, budget, sessionUse));
  } finally {
    await closeAgentSessions(input, paths, sessionUse);
  }
}

/** OJ-style: the final solution runs on each test case the agent did not run it on, each in a fresh sandbox. */
async function runOnTestCases(
  input: TaskWorkflowInput,
  prepared: PreparedTask,
  outcome: AgentOutcome,
  ledger: StageLedger,
  paths: TaskPaths,
  inStage: InStage,
): Promise<string | undefined> {
  let firstFeedback = outcome.lastFeedback;
  if (!outcome.solution.trim()) return firstFeedback;
  if (paths.uses('test-cases-in-one-activity')) {
    // One activity runs them one after another (each still in its own fresh sandbox): N-1 fewer round trips.
    const runs = prepared.testCases.filter((tc) => !outcome.executedTestCases.includes(tc)).map((testCase) => ({ testCase, label: `final-tc${testCase}` }));
    if (!runs.length) return firstFeedback;
    const results = await inStage(ledger, 'execute', () => executionBatch.executeOnTestCases({ runDir: input.runDir, taskId: input.taskId, code: outcome.solution, runs }));
    const first = runs.findIndex((r) => r.testCase === 1);
    return firstFeedback ?? (first >= 0 ? results[first].feedback : undefined);
  }
  for (const testCase of prepared.testCases) {
    if (outcome.executedTestCases.includes(testCase)) continue;
    const result = await inStage(ledger, 'execute', () =>
      execution.executeSolution({ runDir: input.runDir, taskId: input.taskId, testCase, code: outcome.solution, label: `final-tc${testCase}` }),
    );
    if (testCase === 1 && firstFeedback === undefined) firstFeedback = result.feedback;
  }
  return firstFeedback;
}

async function recalcOutputs(input: TaskWorkflowInput, prepared: PreparedTask, ledger: StageLedger, paths: TaskPaths, inStage: InStage): Promise<void> {
  const outputPaths = paths.v6 && prepared.outputPaths
    ? prepared.outputPaths
    : (await bookkeepingCall(paths).outputPaths({ runDir: input.runDir, taskId: input.taskId, testCases: prepared.testCases })).outputPaths;
  await inStage(ledger, 'recalc', async () => {
    // All of a task's outputs in one activity: N-1 fewer round trips on the recalc queue.
    if (paths.uses('recalc-in-one-activity')) return void (await recalcOn(input.recalcTaskQueue!, outputPaths.length).recalcWorkbooks({ paths: outputPaths }));
    const { recalcWorkbook } = recalcOn(input.recalcTaskQueue!);
    for (const path of outputPaths) await recalcWorkbook({ path });
  });
}

/** Stages that run as local activities, inside one workflow task: nobody can see a task wait in them. */
const WITHIN_ONE_WORKFLOW_TASK = new Set(['prepare', 'score']);

/** Runs a ledger stage and keeps the Stage search attribute on the stage the task waits in. */
function stageRunner(paths: TaskPaths): InStage {
  const upsertStage = (previous: string, stage: string) =>
    paths.v6
      ? previous !== stage && !WITHIN_ONE_WORKFLOW_TASK.has(stage)
      : // The attribute is upserted when it changes, not again for each execution of the same stage.
        previous !== stage || !paths.uses('stage-upsert-on-change');
  return async (ledger, stage, fn) => {
    const previous = ledger.current;
    const record = ledger.begin(stage);
    if (upsertStage(previous, stage)) await upsertSearchAttributes([{ key: SA.stage, value: stage }]);
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

async function reportResult(result: TaskResult, budgeted: boolean, paths: TaskPaths, report: RunReport): Promise<TaskCompletion> {
  await upsertSearchAttributes([
    ...(paths.v6 ? [{ key: SA.stage, value: 'score' }] : []),
    { key: SA.status, value: result.failure ? `failed:${result.failure.class}` : 'scored' },
    { key: SA.costUsd, value: result.costUsd },
  ]);
  return report.send(
    {
      taskId: result.taskId,
      soft: result.soft,
      hard: result.hard,
      failureClass: result.failure?.class,
      usage: result.usage,
      costUsd: result.costUsd,
      llmCalls: result.llmCalls,
      budgeted,
    },
    paths.v6,
  );
}
