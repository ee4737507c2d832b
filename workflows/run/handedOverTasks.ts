import { CancellationScope, isCancellation, log } from '@temporalio/workflow';
import type { RunWorkflowInput } from '../../contracts/run';
import { runWatching } from './activities';
import type { RunControl } from './runControl';
import { childWorkflowId } from './runSteps';
import { failedTask } from './taskCompletions';

/**
 * The tasks an earlier execution of this run handed over (running when it continued as new): they are not this
 * execution's children, so no completion event tells it when one ends. They signal their summary; one that cannot
 * (terminated, timed out, failed) is found by the watchHandedOverTasks activity, which waits on their results, and is
 * counted as failed, so the run finishes. Cancelled when the run continues as new again or ends.
 */
export class HandedOverTasks {
  private readonly scope = new CancellationScope();

  constructor(
    private readonly input: RunWorkflowInput,
    private readonly run: RunControl,
    private readonly taskIds: string[],
  ) {}

  start(): void {
    if (!this.taskIds.length) return;
    this.scope
      .run(() => this.watch())
      .catch((err) => {
        if (!isCancellation(err))
          log.warn('watching handed-over tasks stopped', { error: err instanceof Error ? err.message : String(err) });
      });
  }

  stop(): void {
    this.scope.cancel();
  }

  private async watch(): Promise<void> {
    for (;;) {
      const open = this.taskIds.filter((id) => this.run.inFlight.has(id));
      if (!open.length) return;
      const ended = await runWatching.watchHandedOverTasks({
        tasks: open.map((taskId) => ({ taskId, workflowId: childWorkflowId(this.input, taskId) })),
      });
      for (const { taskId, how } of ended)
        this.run.taskDone(failedTask(taskId, new Error(`task workflow ${how} after it was handed over`)));
      // Every task ended with a result: their summaries come by signal.
      if (!ended.length) return;
    }
  }
}
