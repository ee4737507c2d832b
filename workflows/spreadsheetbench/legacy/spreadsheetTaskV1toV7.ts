import { CancellationScope, isCancellation, upsertSearchAttributes } from '@temporalio/workflow';
import type { PreparedTask } from '../../../activities/spreadsheetbench/task';
import type { TaskCompletion, TaskWorkflowInput } from '../../../contracts/run';
import type { TaskResult } from '../../../contracts/taskResult';
import { SA } from '../../../lib/temporal/searchAttributes';
import { reportDone } from '../../run/legacy/signalDone';
import { classifyFailure } from '../../run/taskFailure';
import { bookkeeping, cleanup, execution, localBookkeeping, recalcOn } from '../activities';
import type { AgentOutcome } from '../agents/agent';
import type { InStage, SessionUse } from '../agents/context';
import {
  beginTask,
  doneSummary,
  recordCancelled,
  runAgent,
  runRemainingTestCases,
  stageRunner,
  taskResult,
} from '../taskSteps';
import type { StageLedger } from '../stageLedger';
import { TaskPaths } from './taskPaths';

/**
 * FROZEN. The SpreadsheetBench task workflow as generations v1–v7 recorded it, for histories without the
 * 'spreadsheet-task-v8' marker: every path decided by its patch where it was decided then (legacy/taskPaths.ts). Do
 * not change it; it retires as workflows/VERSIONS.md says.
 */
export async function spreadsheetTaskV1toV7(input: TaskWorkflowInput): Promise<TaskResult & TaskCompletion> {
  const paths = new TaskPaths();
  const { report, ledger, budget, startedAt, task } = beginTask(input);
  const inStage = stageRunner((previous, stage) =>
    paths.v6
      ? previous !== stage && !['prepare', 'score'].includes(stage)
      : previous !== stage || !paths.uses('stage-upsert-on-change'),
  );

  let failure: TaskResult['failure'];
  let prepared: PreparedTask | undefined;
  let outcome: AgentOutcome | undefined;
  let finalFeedback: string | undefined;
  try {
    prepared = await inStage(ledger, 'prepare', () => bookkeepingCall(paths).prepareTask(task));
    outcome = await runAgent(input, prepared, ledger, budget, inStage, (used) => closeSessions(input, paths, used));
    finalFeedback = await runOnTestCases(input, prepared, outcome, ledger, paths, inStage);
    if (outcome.problem) failure = { class: 'model', message: outcome.problem };
  } catch (err) {
    if (isCancellation(err)) return recordCancelled(input, ledger, prepared, startedAt, bookkeepingCall(paths), err);
    failure = classifyFailure(err);
  }
  if (prepared && input.recalcTaskQueue) await recalcOutputs(input, prepared, ledger, paths, inStage);
  const score = await inStage(ledger, 'score', () =>
    (paths.uses('local-scoring') ? localBookkeeping : bookkeeping).scoreTask(task),
  );
  const result = taskResult(input, prepared, score, failure, ledger, startedAt);
  await bookkeepingCall(paths).recordTaskResult({
    runDir: input.runDir,
    result,
    conversations: outcome ? [outcome.conversation] : [],
    official: outcome ? { conversation: outcome.conversation, finalFeedback, solution: outcome.solution } : undefined,
  });
  // Frozen for replay: kept exactly as recorded (the await of a void call is a no-op tick).
  // eslint-disable-next-line @typescript-eslint/await-thenable
  await upsertSearchAttributes([
    ...(paths.v6 ? [{ key: SA.stage, value: 'score' }] : []),
    { key: SA.status, value: result.failure ? `failed:${result.failure.class}` : 'scored' },
    { key: SA.costUsd, value: result.costUsd },
  ]);
  return { ...result, ...(await reportDone(report, doneSummary(result, input.budgeted ?? false), paths.v6)) };
}

/** Cheap bookkeeping as local activities from 'local-bookkeeping' on; before, as activities. */
function bookkeepingCall(paths: TaskPaths): typeof bookkeeping {
  return paths.uses('local-bookkeeping') ? localBookkeeping : bookkeeping;
}

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
  if (paths.uses('test-cases-in-one-activity')) return runRemainingTestCases(input, prepared, outcome, ledger, inStage);
  for (const testCase of prepared.testCases) {
    if (outcome.executedTestCases.includes(testCase)) continue;
    const result = await inStage(ledger, 'execute', () =>
      execution.executeSolution({
        runDir: input.runDir,
        taskId: input.taskId,
        testCase,
        code: outcome.solution,
        label: `final-tc${testCase}`,
      }),
    );
    if (testCase === 1 && firstFeedback === undefined) firstFeedback = result.feedback;
  }
  return firstFeedback;
}

async function recalcOutputs(
  input: TaskWorkflowInput,
  prepared: PreparedTask,
  ledger: StageLedger,
  paths: TaskPaths,
  inStage: InStage,
): Promise<void> {
  const outputPaths =
    paths.v6 && prepared.outputPaths
      ? prepared.outputPaths
      : (
          await bookkeepingCall(paths).outputPaths({
            runDir: input.runDir,
            taskId: input.taskId,
            testCases: prepared.testCases,
          })
        ).outputPaths;
  await inStage(ledger, 'recalc', async () => {
    if (paths.uses('recalc-in-one-activity'))
      return void (await recalcOn(input.recalcTaskQueue!, outputPaths.length).recalcWorkbooks({ paths: outputPaths }));
    const { recalcWorkbook } = recalcOn(input.recalcTaskQueue!);
    for (const path of outputPaths) await recalcWorkbook({ path });
  });
}

async function closeSessions(input: TaskWorkflowInput, paths: TaskPaths, used: SessionUse): Promise<void> {
  if (paths.v6 && !used.opened) return;
  await CancellationScope.nonCancellable(() =>
    (paths.uses('local-bookkeeping') ? localBookkeeping : cleanup).closeSessions({
      runDir: input.runDir,
      taskId: input.taskId,
    }),
  ).catch(() => undefined); // best-effort: an unclosed session expires by its idle TTL
}
