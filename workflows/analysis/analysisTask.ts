import { isCancellation, patched, startChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { SA } from '../../lib/temporal/searchAttributes';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { bookkeeping, waiting } from './activities';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import { RunReport } from '../run/runReport';
import { conversation } from './conversation';
import { closeConversationSignal, type TurnSummary } from '../../contracts/conversation';
import { classifyFailure } from '../run/taskFailure';

/**
 * One request of the analysis suite: its conversation (a child `conversation` workflow, the request's files in its
 * workspace) gets the request as a user message → the turn ends → the conversation is closed → the turn is scored
 * against the answer → result file and the done summary for its run (workflows/runReport.ts). A fetch request
 * without a data server is recorded as skipped.
 */
export async function analysisTask(input: TaskWorkflowInput): Promise<TaskCompletion> {
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
      const { turnId } = await bookkeeping.sendAnalysisRequest({ taskId: input.taskId, workflowId: prepared.workflowId, message: prepared.message });
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
  stage('score');
  const { pass, status, failureClass } = await bookkeeping.recordAnalysisResult({ ...ids, wallMs: Date.now() - startedAt, skipped, failure, turn });
  const usage = { inputTokens: turn?.summary.usage.inputTokens ?? 0, outputTokens: turn?.summary.usage.outputTokens ?? 0 };
  const costUsd = turn?.summary.usage.costUsd ?? 0;
  upsertSearchAttributes([
    { key: SA.status, value: status === 'scored' ? 'scored' : status === 'skipped' ? 'skipped' : `failed:${failureClass ?? 'internal'}` },
    { key: SA.costUsd, value: costUsd },
  ]);
  const done = {
    taskId: input.taskId,
    soft: pass ? 1 : 0,
    hard: pass ? 1 : 0,
    // A skipped request did not pass: the run counts it apart from the passes, with the reason in its result file.
    failureClass: failureClass ?? (skipped ? 'dataset' : undefined),
    usage,
    costUsd,
    llmCalls: turn?.summary.steps ?? 0,
  };
  return report.send(done, patched('done-by-local-activity'));
}

/** The turn's end, unless the conversation workflow ends first (failed, terminated): then that is the request's failure. */
async function untilTurnEnds(turnEnded: Promise<void>, conversationEnded: Promise<unknown>): Promise<void> {
  let over = false;
  const watched = turnEnded.then(() => {
    over = true;
  });
  // The loser of the race must not surface later as an unhandled rejection (it would fail the workflow task).
  watched.catch(() => undefined);
  await Promise.race([watched, conversationEnded]);
  if (over) return;
  throw new Error('the conversation workflow ended before its turn did');
}

function stage(name: string): void {
  upsertSearchAttributes([{ key: SA.stage, value: name }]);
}
