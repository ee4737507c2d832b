import { allHandlersFinished, condition, continueAsNew, patched, workflowInfo } from '@temporalio/workflow';
import type { RunProgress, RunWorkflowInput } from '../../../contracts/run';
import { HandedOverTasks } from '../handedOverTasks';
import { RunControl } from '../runControl';
import { TaskCompletions } from '../taskCompletions';
import { awaitWindow, runToCompletion, startTask, TaskIdPages } from '../runSteps';
import { benchmarkRunV1toV8 } from './benchmarkRunV8';

/**
 * FROZEN. The run workflow as generation v9 ('benchmark-run-v9') recorded it, for histories without the
 * 'benchmark-run-v10' marker; older ones go on to the v8 copy. A settled call did not look at the spend requests held
 * behind its reservation (a run whose last request waited neither paused nor went on). Do not change it; it retires
 * as workflows/VERSIONS.md says.
 */
export async function benchmarkRunV1toV9(input: RunWorkflowInput): Promise<RunProgress> {
  if (!patched('benchmark-run-v9')) return benchmarkRunV1toV8(input);
  const run = new RunControl(input);
  const completions = new TaskCompletions((done) => run.taskDone(done));
  return runToCompletion(input, run, () => runTasks(input, run, completions));
}

async function runTasks(input: RunWorkflowInput, run: RunControl, completions: TaskCompletions): Promise<void> {
  const ids = new TaskIdPages(input);
  const { state, inFlight } = run;
  const how = {
    workflowType: input.taskWorkflow ?? 'spreadsheetTask',
    benchmark: input.benchmark || 'spreadsheetbench',
    reportByCompletion: true,
  };
  const handedOver = new HandedOverTasks(input, run, [...inFlight]);
  handedOver.start();
  for (;;) {
    const more = await awaitWindow(input, run);
    if (workflowInfo().continueAsNewSuggested) {
      handedOver.stop();
      await completions.handOver();
      await condition(allHandlersFinished);
      await continueAsNew<typeof benchmarkRunV1toV9>(run.continuedInput());
    }
    if (!more) break;
    if (run.overBudget()) {
      run.pause('budget reached: raise it with `sheetbench budget`');
      continue;
    }
    const batch = await ids.slice(
      state.nextIndex,
      Math.min(input.concurrency - inFlight.size, input.taskCount - state.nextIndex),
    );
    for (const taskId of batch) inFlight.add(taskId);
    state.nextIndex += batch.length;
    await Promise.all(batch.map(async (taskId) => completions.watch(taskId, await startTask(input, taskId, run, how))));
  }
  handedOver.stop();
}
