import { PrebuiltModule } from '../../lib/threads/prebuiltModule';
import { ThreadPool } from '../../lib/threads/threadPool';
import type { ScoreTaskInput, ScoreTaskResult } from './scoreWork';

export type { ScoreTaskInput, ScoreTaskResult } from './scoreWork';

/** The scoring thread's module: loaded from the bundle the set-up builds (workers/threadBundles.ts), else via tsx. */
export const SCORE_WORK = new PrebuiltModule(new URL('./scoreWork.ts', import.meta.url));

/** The worker's scoring threads, shared by its scoring activities. */
let threads: ThreadPool | undefined;

export const scoreActivities = {
  /**
   * Scores the task's outputs with the official rules (or strict mode, per run). The cell diffs and the floor go to
   * the task's folder (`tasks/<id>/cell-diffs.json`), never into the workflow's history: only the verdicts are returned.
   * Runs in a worker thread: a busy event loop delays every reply this worker is waiting for, model replies included
   * (issue 33 §8: parsing and comparing workbooks held the loop for up to hundreds of ms).
   */
  async scoreTask(input: ScoreTaskInput): Promise<ScoreTaskResult> {
    threads ??= new ThreadPool();
    return threads.run<ScoreTaskResult>(SCORE_WORK, 'scoreAndRecord', input);
  },
};
