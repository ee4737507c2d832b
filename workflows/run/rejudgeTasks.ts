import type { RejudgeInput } from '../../contracts/run';
import { runBookkeeping } from './activities';

const { listTaskIds, finalizeRun } = runBookkeeping;

/**
 * What every benchmark's rejudge workflow does around its own judging of one task: the tasks of the rejudge's list,
 * `concurrency` at a time, then the run's summary rewritten.
 */
export async function rejudgeTasks(
  input: RejudgeInput,
  rejudgeOne: (taskId: string) => Promise<unknown>,
): Promise<{ rejudged: number }> {
  const ids = await listTaskIds({
    runDir: input.runDir,
    offset: 0,
    limit: input.count,
    taskIdsFile: input.taskIdsFile,
  });
  for (let i = 0; i < ids.length; i += input.concurrency) {
    await Promise.all(ids.slice(i, i + input.concurrency).map(rejudgeOne));
  }
  await finalizeRun({ runDir: input.runDir });
  return { rejudged: ids.length };
}
