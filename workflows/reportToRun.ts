import { getExternalWorkflowHandle, workflowInfo } from '@temporalio/workflow';
import { localBookkeeping } from './activityProxies';
import { taskDoneSignal, type TaskDoneSignal } from './contracts';

/**
 * Tells the run that started this task that it is done (after its result is recorded); a task started on its own has
 * nobody to tell. The run is addressed by workflow id only, so this reaches its latest execution after a
 * continue-as-new, and it counts each task once, so a repeat is harmless.
 *
 * `byLocalActivity` (new executions): the signal is in the run's history before this workflow task ends, so the task
 * completes in it. A signal command would first have to be acknowledged in one more workflow task: the server drops a
 * signal whose sender has closed.
 */
export async function reportToRun(done: TaskDoneSignal, byLocalActivity: boolean): Promise<void> {
  const parent = workflowInfo().parent;
  if (!parent) return;
  if (byLocalActivity) return void (await localBookkeeping.reportTaskDone({ runWorkflowId: parent.workflowId, done }));
  await getExternalWorkflowHandle(parent.workflowId).signal(taskDoneSignal, done);
}
