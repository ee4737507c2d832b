import { isCancellation, log, type ChildWorkflowHandle, type Workflow } from '@temporalio/workflow';
import { handOverSignal, type TaskCompletion, type TaskDoneSignal } from '../../contracts/run';

/**
 * The tasks a run execution reads by completion: their done summaries come from the child-completion events this
 * execution gets anyway, so a task spends no local activity and no signal on telling it. Before the execution
 * continues as new it hands them over: each task signals its summary from then on (its completion would reach the
 * closed execution), and a task that closed before the hand-over reached it is awaited here.
 */
export class TaskCompletions {
  private readonly pending = new Map<string, { child: ChildWorkflowHandle<Workflow>; counted: Promise<void> }>();

  constructor(private readonly onDone: (done: TaskDoneSignal) => void) {}

  /** Reads this task's summary from its completion. */
  watch(taskId: string, child: ChildWorkflowHandle<Workflow>): void {
    const counted = child.result().then(
      (result) => {
        // A task workflow from an older worker returns no summary: it signals it.
        const done = (result as Partial<TaskCompletion> | undefined)?.done;
        if (done) this.onDone(done);
      },
      (err) => this.onDone(failedTask(taskId, err)),
    );
    this.pending.set(taskId, { child, counted: counted.finally(() => this.pending.delete(taskId)) });
  }

  async handOver(): Promise<void> {
    await Promise.all(
      [...this.pending.values()].map(async ({ child, counted }) => {
        try {
          await child.signal(handOverSignal);
        } catch {
          // It closed first: its completion event is on its way to this execution.
          await counted;
        }
      }),
    );
  }
}

/** A task workflow that failed, was terminated or timed out recorded nothing: the run counts it as failed. */
export function failedTask(taskId: string, err: unknown): TaskDoneSignal {
  const cancelled = isCancellation(err);
  log.warn('task workflow ended without a result', { taskId, error: err instanceof Error ? err.message : String(err) });
  return {
    taskId,
    soft: 0,
    hard: 0,
    failureClass: cancelled ? 'cancelled' : 'internal',
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    llmCalls: 0,
  };
}
