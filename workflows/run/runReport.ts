import { getExternalWorkflowHandle, setHandler, workflowInfo } from '@temporalio/workflow';
import { runReporting } from './activities';
import { handOverSignal, taskDoneSignal, type TaskCompletion, type TaskDoneSignal, type TaskWorkflowInput } from '../../contracts/run';

/**
 * How a task tells the run that started it that it is done (after its result is recorded). A task started on its own
 * has nobody to tell.
 *
 * A run that asked for it (`reportBy: 'completion'`) reads the done summary from the task's result: nothing to send.
 * Before that run continues as new it hands its tasks over (handOverSignal), and a task handed over, or started by an
 * older run, signals the summary to the run's workflow id, which reaches its latest execution; the run counts each task
 * once, so a summary that arrives both ways, or twice, is harmless.
 */
export class RunReport {
  private handedOver = false;

  constructor(private readonly reportBy: TaskWorkflowInput['reportBy']) {
    setHandler(handOverSignal, () => void (this.handedOver = true));
  }

  /**
   * `byLocalActivity` (newer executions): the signal is in the run's history before this workflow task ends, so the
   * task completes in it. A signal command would first have to be acknowledged in one more workflow task: the server
   * drops a signal whose sender has closed.
   */
  async send(done: TaskDoneSignal, byLocalActivity: boolean): Promise<TaskCompletion> {
    const parent = workflowInfo().parent;
    if (!parent || (this.reportBy === 'completion' && !this.handedOver)) return { done };
    if (byLocalActivity) await runReporting.reportTaskDone({ runWorkflowId: parent.workflowId, done });
    else await getExternalWorkflowHandle(parent.workflowId).signal(taskDoneSignal, done);
    return { done };
  }
}
