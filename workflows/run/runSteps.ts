// The steps every generation of the run workflow takes the same way.
import {
  ApplicationFailure,
  condition,
  isCancellation,
  ParentClosePolicy,
  upsertSearchAttributes,
  WorkflowIdReusePolicy,
  startChild,
  workflowInfo,
  type ChildWorkflowHandle,
  type Workflow,
} from '@temporalio/workflow';
import type { RunProgress, RunWorkflowInput } from '../../contracts/run';
import { SA } from '../../lib/temporal/searchAttributes';
import { runBookkeeping } from './activities';
import type { RunControl } from './runControl';
import { FailureTypes } from '../../lib/failureTypes';
import { childFailoverOptions } from './failover';

const { listTaskIds, finalizeRun } = runBookkeeping;

/** Runs the tasks, then scores the run with its benchmark; a cancelled run cancels its running tasks first. */
export async function runToCompletion(
  input: RunWorkflowInput,
  run: RunControl,
  runTasks: () => Promise<void>,
): Promise<RunProgress> {
  try {
    await runTasks();
  } catch (err) {
    if (isCancellation(err)) await run.cancelTasks((taskId) => childWorkflowId(input, taskId));
    throw err;
  }
  await finalizeRun({ runDir: input.runDir });
  upsertSearchAttributes([{ key: SA.status, value: 'completed' }]);
  return run.progress();
}

const ID_PAGE = 64;

/**
 * Waits until the window has a free slot for a pending task, or the last task is done, or continue-as-new is due;
 * says whether tasks remain to be started.
 */
export async function awaitWindow(input: RunWorkflowInput, run: RunControl): Promise<boolean> {
  const { state, inFlight } = run;
  const more = state.nextIndex < input.taskCount;
  await condition(
    () =>
      (more && inFlight.size < input.concurrency && !state.paused) ||
      (!more && inFlight.size === 0) ||
      workflowInfo().continueAsNewSuggested,
  );
  return more;
}

/** Task ids read page by page from the run folder (the task list itself never enters the history). */
export class TaskIdPages {
  private page: string[] = [];
  private pageStart = 0;

  constructor(private readonly input: RunWorkflowInput) {}

  async slice(start: number, count: number): Promise<string[]> {
    const out: string[] = [];
    for (let i = start; i < start + count; i++) {
      if (i < this.pageStart || i >= this.pageStart + this.page.length) {
        this.pageStart = i;
        this.page = await listTaskIds({
          runDir: this.input.runDir,
          offset: i,
          limit: ID_PAGE,
          taskIdsFile: this.input.taskIdsFile,
        });
        if (!this.page.length)
          throw ApplicationFailure.nonRetryable(
            `run lists ${this.input.taskCount} tasks but has none at index ${i}`,
            FailureTypes.DatasetError,
          );
      }
      out.push(this.page[i - this.pageStart]);
    }
    return out;
  }
}

export function childWorkflowId(input: RunWorkflowInput, taskId: string): string {
  return `${input.runId}/task/${taskId}${input.childSuffix ? `/${input.childSuffix}` : ''}`;
}

export interface TaskStart {
  workflowType: string;
  /** The BenchBenchmark search attribute of the task. */
  benchmark: string;
  /** The run reads the task's done summary from its completion (the task sends it only once handed over). */
  reportByCompletion: boolean;
}

/** Starts one task workflow of the run: an abandoned child (it outlives the run's continue-as-new), its search attributes set. */
export async function startTask(
  input: RunWorkflowInput,
  taskId: string,
  run: RunControl,
  how: TaskStart,
): Promise<ChildWorkflowHandle<Workflow>> {
  const sa = workflowInfo().typedSearchAttributes;
  return startChild(how.workflowType, {
    workflowId: childWorkflowId(input, taskId),
    args: [
      {
        runId: input.runId,
        runDir: input.runDir,
        taskId,
        agent: input.agent,
        taskBudgetUsd: input.taskBudgetUsd,
        recalcTaskQueue: input.recalcTaskQueue,
        budgeted: run.budgeted,
        ...(how.reportByCompletion ? { reportBy: 'completion' as const } : {}),
        failover: input.failover,
      },
    ],
    ...childFailoverOptions(),
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: SA.runId, value: input.runId },
      { key: SA.taskId, value: taskId },
      { key: SA.benchmark, value: how.benchmark },
      { key: SA.agent, value: input.agent },
      { key: SA.model, value: sa.get(SA.model) ?? '' },
      { key: SA.status, value: 'running' },
    ],
  });
}
