import { allHandlersFinished, condition, continueAsNew, patched, workflowInfo } from '@temporalio/workflow';
import type { RunProgress, RunWorkflowInput } from '../../contracts/run';
import { CURRENT } from '../versions';
import { HandedOverTasks } from './handedOverTasks';
import { benchmarkRunV1toV9 } from './legacy/benchmarkRunV9';
import { BUDGET_REACHED, RunControl } from './runControl';
import { TaskCompletions } from './taskCompletions';
import { awaitWindow, runToCompletion, startTask, TaskIdPages } from './runSteps';
import { useFailover } from './failover';

/**
 * One benchmark run: a sliding window of task workflows of the run's benchmark (started by type name; they are
 * abandoned children, so they survive continue-as-new), each counted from its completion, or from its done signal once
 * handed over to the next execution, which watches those for one that ends without a result; progress by query,
 * pause/resume by signal, budget by update, spend reserved and settled per LLM call (RunControl), a settled call
 * releasing the requests held behind it (v10). Histories recorded before this generation replay on the legacy copies.
 */
export async function benchmarkRun(input: RunWorkflowInput): Promise<RunProgress> {
  useFailover(input.failover);
  if (!patched(CURRENT.benchmarkRun)) return benchmarkRunV1toV9(input);
  const run = new RunControl(input, { settleReleasesWaiting: true });
  const completions = new TaskCompletions((done) => run.taskDone(done));
  return runToCompletion(input, run, () => runTasks(input, run, completions));
}

/** The sliding window: fill every free slot in one workflow task, until all are done (or continue-as-new is due). */
async function runTasks(input: RunWorkflowInput, run: RunControl, completions: TaskCompletions): Promise<void> {
  const ids = new TaskIdPages(input);
  const { state, inFlight } = run;
  const how = {
    workflowType: taskWorkflowOf(input),
    benchmark: input.benchmark || 'spreadsheetbench',
    reportByCompletion: true,
  };
  // In flight before this execution started: handed over by the one before.
  const handedOver = new HandedOverTasks(input, run, [...inFlight]);
  handedOver.start();
  for (;;) {
    const more = await awaitWindow(input, run);
    if (workflowInfo().continueAsNewSuggested) {
      handedOver.stop();
      await completions.handOver();
      await condition(allHandlersFinished);
      await continueAsNew<typeof benchmarkRun>(run.continuedInput());
    }
    if (!more) break;
    if (run.overBudget()) {
      run.pause(BUDGET_REACHED);
      continue;
    }
    const batch = await ids.slice(
      state.nextIndex,
      Math.min(input.concurrency - inFlight.size, input.taskCount - state.nextIndex),
    );
    // In flight before the starts resolve: a fast task's summary may arrive in the same activation.
    for (const taskId of batch) inFlight.add(taskId);
    state.nextIndex += batch.length;
    await Promise.all(batch.map(async (taskId) => completions.watch(taskId, await startTask(input, taskId, run, how))));
  }
  handedOver.stop();
}

/** The benchmark's task workflow, by type name: a new benchmark needs no change here (runs started before benchmarks name none). */
function taskWorkflowOf(input: RunWorkflowInput): string {
  return input.taskWorkflow ?? 'spreadsheetTask';
}
