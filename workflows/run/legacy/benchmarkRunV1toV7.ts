import { allHandlersFinished, condition, continueAsNew, patched, workflowInfo } from '@temporalio/workflow';
import type { RunProgress, RunWorkflowInput } from '../../../contracts/run';
import { RunControl } from '../runControl';
import { TaskCompletions } from '../taskCompletions';
import { awaitWindow, runToCompletion, startTask, TaskIdPages } from '../runSteps';

/**
 * FROZEN. The run workflow as generations v1–v7 recorded it, for histories without the 'benchmark-run-v8' marker. It
 * keeps their patches where they were decided: 'tasks-report-by-completion' (v7) at the start, 'batched-child-starts'
 * (v2) per batch, 'task-workflow-by-name' (v3) per task start. Do not change it; it retires as workflows/VERSIONS.md says.
 */
export async function benchmarkRunV1toV7(input: RunWorkflowInput): Promise<RunProgress> {
  const byCompletion = patched('tasks-report-by-completion');
  const run = new RunControl(input);
  const completions = byCompletion ? new TaskCompletions((done) => run.taskDone(done)) : undefined;
  return runToCompletion(input, run, () => runTasks(input, run, completions));
}

async function runTasks(
  input: RunWorkflowInput,
  run: RunControl,
  completions: TaskCompletions | undefined,
): Promise<void> {
  const ids = new TaskIdPages(input);
  const { state, inFlight } = run;
  for (;;) {
    const more = await awaitWindow(input, run);
    if (workflowInfo().continueAsNewSuggested) {
      await completions?.handOver();
      await condition(allHandlersFinished);
      await continueAsNew<typeof benchmarkRunV1toV7>(run.continuedInput());
    }
    if (!more) break;
    if (run.overBudget()) {
      run.pause('budget reached: raise it with `sheetbench budget`');
      continue;
    }
    const room = patched('batched-child-starts')
      ? Math.min(input.concurrency - inFlight.size, input.taskCount - state.nextIndex)
      : 1;
    const batch = await ids.slice(state.nextIndex, room);
    for (const taskId of batch) inFlight.add(taskId);
    state.nextIndex += batch.length;
    await Promise.all(
      batch.map(async (taskId) => {
        const byName = patched('task-workflow-by-name');
        const how = {
          workflowType: byName && input.taskWorkflow ? input.taskWorkflow : 'spreadsheetTask',
          benchmark: (byName && input.benchmark) || 'spreadsheetbench',
          reportByCompletion: completions !== undefined,
        };
        const child = await startTask(input, taskId, run, how);
        completions?.watch(taskId, child);
      }),
    );
  }
}
