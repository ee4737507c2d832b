import { throughBatch } from '../run/batchedCall';
import { rejudgeTasks } from '../run/rejudgeTasks';
import { bookkeeping, llm } from './activities';
import { callKeyOf } from '../../lib/llm/callKey';
import type { RejudgeInput } from '../../contracts/run';
import { useFailover } from '../run/failover';

/**
 * Judges recorded answers again (e.g. unparseable judge replies, or another judge model) without asking the answering
 * model: one judge activity per question, its result re-recorded, then the run's summary rewritten.
 */
export async function dsbenchRejudge(input: RejudgeInput): Promise<{ rejudged: number }> {
  useFailover(input.failover);
  return rejudgeTasks(input, (taskId) => rejudge(input, taskId));
}

async function rejudge(input: RejudgeInput, taskId: string): Promise<void> {
  const callKey = callKeyOf([input.runId, taskId, 'judge'], input.tag);
  const spend = await throughBatch(() =>
    llm.judgeDsbenchAnswer({ runDir: input.runDir, taskId, callKey, judgeModel: input.judgeModel }),
  );
  await bookkeeping.recordDsbenchResult({
    runDir: input.runDir,
    taskId,
    spend: { usage: spend.usage, costUsd: spend.costUsd, llmCalls: 1 },
    addToRecorded: true,
    wallMs: 0,
  });
}
