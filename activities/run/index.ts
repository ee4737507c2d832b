import path from 'node:path';
import { cancellationSignal, getClient, heartbeat, log } from '@temporalio/activity';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { benchmarkNamed } from '../../benchmarks';
import { taskDoneSignal, type TaskDoneSignal } from '../../contracts/run';
import { z } from 'zod';
import { readRequiredJson } from '../../lib/json';
import { runContext } from '../../lib/runStore/runContext';
import { taskKey } from '../../lib/runStore/taskRecord';
import { heartbeatEvery } from '../heartbeat';

/** The run's own activities, the same for every benchmark: its task list, its scoring, a task's done report. */
export const runActivities = {
  /** A page of task ids in run order (the task list travels by reference: it stays in the run folder). */
  async listTaskIds(input: { runDir: string; offset: number; limit: number; taskIdsFile?: string }): Promise<string[]> {
    const ctx = await runContext(input.runDir);
    const ids = input.taskIdsFile
      ? await readRequiredJson(path.join(input.runDir, input.taskIdsFile), z.array(z.string()))
      : ctx.tasks.map((t) => taskKey(t.id));
    return ids.slice(input.offset, input.offset + input.limit);
  },

  /** Scores the finished run with its benchmark's scorer: official files and summary.json. */
  async finalizeRun(input: { runDir: string }): Promise<unknown> {
    const { manifest } = await runContext(input.runDir);
    return benchmarkNamed(manifest.benchmark).finalize(input.runDir);
  },

  /**
   * Tells the run (by workflow id: its latest execution) that a task is done; called by the task's last workflow task
   * when the run does not read it from the task's completion (workflows/run/runReport.ts). A run that no longer exists has
   * nobody to tell: the task's result is in the run folder.
   */
  async reportTaskDone(input: { runWorkflowId: string; done: TaskDoneSignal }): Promise<void> {
    try {
      await getClient().workflow.getHandle(input.runWorkflowId).signal(taskDoneSignal, input.done);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      log.warn('task done, but its run is gone', { run: input.runWorkflowId, taskId: input.done.taskId });
    }
  },

  /**
   * Waits on tasks a run's earlier execution handed over, until one ends without a result (terminated, timed out,
   * failed, cancelled: it can send no summary) or all have ended; returns those that ended so. Heartbeats while it waits.
   */
  async watchHandedOverTasks(input: {
    tasks: Array<{ taskId: string; workflowId: string }>;
  }): Promise<Array<{ taskId: string; how: string }>> {
    const client = getClient();
    const beat = setInterval(() => heartbeat(), heartbeatEvery(10_000));
    try {
      const ended: Array<{ taskId: string; how: string }> = [];
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const outcomes = input.tasks.map(({ taskId, workflowId }) =>
        client.workflow
          .getHandle(workflowId)
          .result()
          .then(
            () => undefined,
            (err: unknown) => {
              ended.push({ taskId, how: endedHow(err) });
              wake();
            },
          ),
      );
      const cancelled = new Promise<void>((resolve) =>
        cancellationSignal().addEventListener('abort', () => resolve(), { once: true }),
      );
      await Promise.race([woken, Promise.all(outcomes), cancelled]);
      // Tasks terminated together (an operator's batch) are reported together.
      if (ended.length) await new Promise((r) => setTimeout(r, 500));
      return ended;
    } finally {
      clearInterval(beat);
    }
  },
};

/** How a workflow ended without a result, in words: terminated, timed out, failed (with its message), cancelled. */
function endedHow(err: unknown): string {
  if (err instanceof WorkflowNotFoundError) return 'was not found';
  const cause = err instanceof WorkflowFailedError ? err.cause : err;
  const name = (cause as { name?: string } | undefined)?.name ?? '';
  if (name === 'TerminatedFailure') return 'was terminated';
  if (name === 'TimeoutFailure') return 'timed out';
  if (name === 'CancelledFailure') return 'was cancelled';
  return `failed (${cause instanceof Error ? cause.message : String(cause)})`;
}

export type RunActivities = typeof runActivities;
