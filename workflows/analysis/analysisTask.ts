import { executeChild, isCancellation, patched, workflowInfo } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import { RunReport } from '../run/runReport';
import { classifyFailure } from '../run/taskFailure';
import { CURRENT } from '../versions';
import { bookkeeping } from './activities';
import { conversation } from './conversation';
import { analysisTaskV1toV3 } from './legacy/analysisTaskV1toV3';
import { scoreRequest, stage, type RequestOutcome } from './request';
import { childFailoverOptions, useFailover } from '../run/failover';

/**
 * One request of the analysis suite: its conversation, a child `conversation` workflow made for this one request (the
 * request's files alone in its workspace), runs the request as its turn and ends; its result holds the turn, which is
 * scored against the answer → result file → the done summary for the run. A fetch request without a data server is
 * recorded as skipped. Histories recorded before this generation replay on the legacy copy.
 */
export async function analysisTask(input: TaskWorkflowInput): Promise<TaskCompletion> {
  useFailover(input.failover);
  if (!patched(CURRENT.analysisTask)) return analysisTaskV1toV3(input);
  const report = new RunReport(input.reportBy);
  const startedAt = Date.now();
  let outcome: RequestOutcome;
  try {
    const prepared = await bookkeeping.prepareAnalysisRequest({
      runDir: input.runDir,
      taskId: input.taskId,
      taskWorkflowId: workflowInfo().workflowId,
    });
    if ('skipped' in prepared) outcome = { skipped: prepared.skipped };
    else {
      stage('conversation');
      const state = await executeChild(conversation, {
        workflowId: prepared.workflowId,
        args: [{ ...prepared.conversation, request: prepared.message, failover: input.failover }],
        ...childFailoverOptions(),
      });
      const summary = state.turns[0];
      if (!summary) throw new Error('the conversation ended without running the request');
      outcome = { turn: { dir: prepared.conversation.dir, summary } };
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    outcome = { failure: classifyFailure(err) };
  }
  return report.send(await scoreRequest(input, startedAt, outcome));
}
