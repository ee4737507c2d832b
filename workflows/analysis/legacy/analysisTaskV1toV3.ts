import { isCancellation, patched, startChild, workflowInfo } from '@temporalio/workflow';
import type { TaskFailureClass } from '../../../contracts/taskResult';
import { bookkeeping, waiting } from '../activities';
import type { TaskCompletion, TaskWorkflowInput } from '../../../contracts/run';
import { reportDone } from '../../run/legacy/signalDone';
import { RunReport } from '../../run/runReport';
import { conversation } from '../conversation';
import { closeConversationSignal, type TurnSummary } from '../../../contracts/conversation';
import { classifyFailure } from '../../run/taskFailure';
import { scoreRequest, stage } from '../request';

/**
 * FROZEN. The analysis-suite request workflow as generations v1–v3 recorded it, for histories without the
 * 'analysis-task-v4' marker: the request reached its child conversation through an activity that sent the
 * `sendMessage` update with the Temporal client, and another that polled the event log for the turn's end; the done
 * summary went by signal command (v1) or local activity ('done-by-local-activity', v2). Do not change it; it retires as
 * workflows/VERSIONS.md says.
 */
export async function analysisTaskV1toV3(input: TaskWorkflowInput): Promise<TaskCompletion> {
  const report = new RunReport(input.reportBy);
  const startedAt = Date.now();
  const ids = { runDir: input.runDir, taskId: input.taskId };
  let skipped: string | undefined;
  let turn: { dir: string; summary: TurnSummary } | undefined;
  let failure: { class: TaskFailureClass; message: string } | undefined;
  try {
    const prepared = await bookkeeping.prepareAnalysisRequest({ ...ids, taskWorkflowId: workflowInfo().workflowId });
    if ('skipped' in prepared) skipped = prepared.skipped;
    else {
      stage('conversation');
      const child = await startChild(conversation, { workflowId: prepared.workflowId, args: [prepared.conversation] });
      const { turnId } = await bookkeeping.sendAnalysisRequest({
        taskId: input.taskId,
        workflowId: prepared.workflowId,
        message: prepared.message,
      });
      const ended = child.result();
      await untilTurnEnds(waiting.awaitAnalysisTurn({ dir: prepared.conversation.dir, turnId }), ended);
      await child.signal(closeConversationSignal);
      const state = await ended;
      const summary = state.turns.find((t) => t.turnId === turnId);
      if (!summary) throw new Error(`turn ${turnId} is not in the conversation's state`);
      turn = { dir: prepared.conversation.dir, summary };
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    failure = classifyFailure(err);
  }
  const done = await scoreRequest(input, startedAt, { skipped, failure, turn });
  return reportDone(report, done, patched('done-by-local-activity'));
}

/** The turn's end, unless the conversation workflow ends first (failed, terminated): then that is the request's failure. */
async function untilTurnEnds(turnEnded: Promise<void>, conversationEnded: Promise<unknown>): Promise<void> {
  let over = false;
  const watched = turnEnded.then(() => {
    over = true;
  });
  // The loser of the race must not surface later as an unhandled rejection (it would fail the workflow task).
  watched.catch(() => undefined); // handled by the race below; this only keeps the loser from being unhandled
  await Promise.race([watched, conversationEnded]);
  if (over) return;
  throw new Error('the conversation workflow ended before its turn did');
}
