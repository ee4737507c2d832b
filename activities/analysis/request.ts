import { Context, heartbeat } from '@temporalio/activity';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { readEvents } from '../../analysis/conversation/eventLog';
import { conversationLayout } from '../../analysis/conversation/layout';
import { analysisRun } from '../../benchmarks/analysis/run';
import { prepareRequest, type Preparation } from '../../benchmarks/analysis/request';
import { recordRequestResult, type RecordInput } from '../../benchmarks/analysis/result';
import { sendMessageUpdate, summaryQuery, type SendMessageInput } from '../../contracts/conversation';
import type { TaskFailureClass } from '../../contracts/taskResult';
import type { WorkerDeps } from '../deps';

const POLL_MS = 500;

/** The analysis benchmark's activities: thin adapters over benchmarks/analysis/ and the conversation's own messages. */
export function requestActivities(deps: WorkerDeps) {
  return {
    async prepareAnalysisRequest(input: { runDir: string; taskId: string; taskWorkflowId: string }): Promise<Preparation> {
      return prepareRequest(await analysisRun(input.runDir), input.taskId, input.taskWorkflowId, deps.config);
    },

    /** Sends the request as a user message (the `sendMessage` update the API uses); a retry finds the turn already sent. */
    async sendAnalysisRequest(input: { taskId: string; workflowId: string; message: SendMessageInput }): Promise<{ turnId: string }> {
      const handle = Context.current().client.workflow.getHandle(input.workflowId);
      const summary = await handle.query(summaryQuery);
      const sent = summary.currentTurnId ?? summary.turns[0]?.turnId;
      if (sent) return { turnId: sent };
      return handle.executeUpdate(sendMessageUpdate, { args: [input.message] }).catch((err: unknown) => {
        if (!(err instanceof WorkflowUpdateFailedError)) throw err;
        // The conversation refused the message (e.g. longer than conversation.maxMessageChars): no retry changes that.
        throw new DatasetError(`the conversation refused the request: ${(err.cause as Error | undefined)?.message ?? err.message}`, input.taskId);
      });
    },

    /** Waits (heartbeating) until the turn's end is in the conversation's event log. */
    async awaitAnalysisTurn(input: { dir: string; turnId: string }): Promise<void> {
      const layout = conversationLayout(input.dir);
      for (;;) {
        const events = await readEvents(layout);
        if (events.some((e) => e.turnId === input.turnId && e.type === 'turn_ended')) return;
        heartbeat();
        await Context.current().sleep(POLL_MS);
      }
    },

    async recordAnalysisResult(input: RecordInput & { runDir: string }): Promise<{ pass: boolean; status: string; failureClass?: TaskFailureClass }> {
      const result = await recordRequestResult(await analysisRun(input.runDir), input);
      return { pass: result.pass, status: result.status, ...(result.failure ? { failureClass: result.failure.class } : {}) };
    },
  };
}
