import path from 'node:path';
import { getClient, log } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { benchmarkNamed } from '../../benchmarks';
import { taskDoneSignal, type TaskDoneSignal } from '../../contracts/run';
import { readJson } from '../../lib/runStore/files';
import { runContext } from '../../lib/runStore/runContext';
import { taskKey } from '../../lib/runStore/taskRecord';

/** The run's own activities, the same for every benchmark: its task list, its scoring, a task's done report. */
export const runActivities = {
  /** A page of task ids in run order (the task list travels by reference: it stays in the run folder). */
  async listTaskIds(input: { runDir: string; offset: number; limit: number; taskIdsFile?: string }): Promise<string[]> {
    const ctx = await runContext(input.runDir);
    const ids = input.taskIdsFile
      ? await readJson<string[]>(path.join(input.runDir, input.taskIdsFile))
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
};

export type RunActivities = typeof runActivities;
