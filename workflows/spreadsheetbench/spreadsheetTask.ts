import { CancellationScope, isCancellation, patched, upsertSearchAttributes } from '@temporalio/workflow';
import type { PreparedTask } from '../../activities/spreadsheetbench/task';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import type { TaskResult } from '../../contracts/taskResult';
import { SA } from '../../lib/temporal/searchAttributes';
import { classifyFailure, failureMessage } from '../run/taskFailure';
import { CURRENT } from '../versions';
import { localBookkeeping, recalcOn } from './activities';
import type { AgentOutcome } from './agents/agent';
import type { SessionUse } from './agents/context';
import { spreadsheetTaskV1toV7 } from './legacy/spreadsheetTaskV1toV7';
import type { StageLedger } from './stageLedger';
import {
  beginTask,
  doneSummary,
  recordCancelled,
  runAgent,
  runRemainingTestCases,
  stageRunner,
  taskResult,
} from './taskSteps';
import { useFailover } from '../run/failover';

/** Stages that run as local activities, inside one workflow task: nobody can see a task wait in them. */
const WITHIN_ONE_WORKFLOW_TASK = new Set(['prepare', 'score']);

/** The Stage search attribute follows the stages a task waits in. */
const inStage = stageRunner((previous, stage) => previous !== stage && !WITHIN_ONE_WORKFLOW_TASK.has(stage));

/**
 * One SpreadsheetBench task: prepare → agent → the solution on every test case it did not run (OJ style) → recalculate
 * → score → record → the done summary for the run. Every LLM call, execution and recalculation is its own activity;
 * the cheap bookkeeping (prepare, score, record) runs as local activities. Histories recorded before this generation
 * replay on the legacy copy.
 */
export async function spreadsheetTask(input: TaskWorkflowInput): Promise<TaskResult & TaskCompletion> {
  useFailover(input.failover);
  if (!patched(CURRENT.spreadsheetTask)) return spreadsheetTaskV1toV7(input);
  const { report, ledger, budget, startedAt, task } = beginTask(input);

  let failure: TaskResult['failure'];
  let prepared: PreparedTask | undefined;
  let outcome: AgentOutcome | undefined;
  let finalFeedback: string | undefined;
  try {
    prepared = await inStage(ledger, 'prepare', () => localBookkeeping.prepareTask(task));
    outcome = await runAgent(input, prepared, ledger, budget, inStage, (used) => closeSessions(input, used));
    if (outcome.solution.trim()) finalFeedback = await runRemainingTestCases(input, prepared, outcome, ledger, inStage);
    else finalFeedback = outcome.lastFeedback;
    if (outcome.problem) failure = { class: 'model', message: outcome.problem };
  } catch (err) {
    if (isCancellation(err)) return recordCancelled(input, ledger, prepared, startedAt, localBookkeeping, err);
    failure = classifyFailure(err);
  }
  const outputs = prepared?.outputPaths ?? [];
  if (input.recalcTaskQueue && outputs.length) {
    const recalcFailure = await recalculate(input.recalcTaskQueue, outputs, ledger);
    failure ??= recalcFailure;
  }
  const score = await inStage(ledger, 'score', () => localBookkeeping.scoreTask(task));
  const result = taskResult(input, prepared, score, failure, ledger, startedAt);
  await localBookkeeping.recordTaskResult({
    runDir: input.runDir,
    result,
    conversations: outcome ? [outcome.conversation] : [],
    official: outcome ? { conversation: outcome.conversation, finalFeedback, solution: outcome.solution } : undefined,
  });
  upsertSearchAttributes([
    { key: SA.stage, value: 'score' },
    { key: SA.status, value: result.failure ? `failed:${result.failure.class}` : 'scored' },
    { key: SA.costUsd, value: result.costUsd },
  ]);
  return { ...result, ...(await report.send(doneSummary(result, input.budgeted ?? false))) };
}

/**
 * All of a task's outputs in one activity on the recalc queue (missing ones are skipped). A recalculation that still
 * fails after its retries (e.g. its worker lost at every attempt) is the task's failure, not its workflow's: the task
 * is scored on the workbooks as they stand and recorded, and `sheetbench retry --failed` can run it again.
 */
async function recalculate(queue: string, outputs: string[], ledger: StageLedger): Promise<TaskResult['failure']> {
  try {
    await inStage(ledger, 'recalc', () => recalcOn(queue, outputs.length).recalcWorkbooks({ paths: outputs }));
    return undefined;
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { class: 'recalc', message: `recalculation failed: ${failureMessage(err)}` };
  }
}

/** Ends the task's kernel sessions on the worker that holds them, if the agent opened any (others expire by idle TTL). */
async function closeSessions(input: TaskWorkflowInput, used: SessionUse): Promise<void> {
  if (!used.opened) return;
  // Also when the task is being cancelled: kernels are disposed, not left to their idle timeout.
  await CancellationScope.nonCancellable(() =>
    localBookkeeping.closeSessions({ runDir: input.runDir, taskId: input.taskId }),
  ).catch(() => undefined); // best-effort: an unclosed session expires by its idle TTL
}
