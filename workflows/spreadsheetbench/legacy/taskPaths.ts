import { patched } from '@temporalio/workflow';

/** The patches a SpreadsheetBench task workflow took one at a time, before 'task-paths-v6' took them all at once. */
export type TaskPatch =
  | 'local-bookkeeping'
  | 'test-cases-in-one-activity'
  | 'recalc-in-one-activity'
  | 'local-scoring'
  | 'stage-upsert-on-change';

/**
 * The code paths of one task workflow execution. A new execution records a single patch marker at its start and takes
 * every newer path: one marker and one TemporalChangeVersion upsert per task instead of one per patch. Executions
 * recorded before it (replayed, or in flight during a deploy) find no such marker and decide each path by its own
 * patch, at the point where they decided it then.
 *
 * Taken only by v6 executions (no earlier history holds them):
 * - the run hears of the result from a local activity in the task's last workflow task (no workflow task after it);
 * - the agent's kernel sessions are closed only if it opened any;
 * - the outputs to recalculate come with the prepared task (no local activity to list them; missing ones are skipped);
 * - the Stage attribute is upserted for stages a task waits in, not for the local ones that start and end inside one
 *   workflow task (prepare; score goes out with the final status).
 */
export class TaskPaths {
  readonly v6 = patched('task-paths-v6');

  uses(patch: TaskPatch): boolean {
    return this.v6 || patched(patch);
  }
}
