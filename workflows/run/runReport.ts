import { setHandler, workflowInfo } from '@temporalio/workflow';
import { handOverSignal, type TaskCompletion, type TaskDoneSignal, type TaskWorkflowInput } from '../../contracts/run';
import { runReporting } from './activities';

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

  /** The run's workflow id when it must be told; none when it reads the task's completion (or there is no run). */
  recipient(): string | undefined {
    const parent = workflowInfo().parent;
    if (!parent || (this.reportBy === 'completion' && !this.handedOver)) return undefined;
    return parent.workflowId;
  }

  /**
   * The signal goes out from a local activity in this last workflow task, so it is in the run's history before the
   * task completes in it (a signal command would first have to be acknowledged in one more workflow task: the server
   * drops a signal whose sender has closed).
   */
  async send(done: TaskDoneSignal): Promise<TaskCompletion> {
    const runWorkflowId = this.recipient();
    if (runWorkflowId) await runReporting.reportTaskDone({ runWorkflowId, done });
    return { done };
  }
}
