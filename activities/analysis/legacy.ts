import { Context, heartbeat } from '@temporalio/activity';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { readEvents } from '../../analysis/conversation/eventLog';
import { conversationLayout } from '../../analysis/conversation/layout';
import { sendMessageUpdate, summaryQuery, type SendMessageInput } from '../../contracts/conversation';
import { DatasetError } from '../../lib/runStore/taskRecord';

const POLL_MS = 500;

/**
 * FROZEN. The activities only analysis-task executions recorded before 'analysis-task-v4' schedule
 * (workflows/analysis/legacy/analysisTaskV1toV3.ts): kept registered so that such an execution, still running after an
 * upgrade, can finish. They retire with that copy (workflows/VERSIONS.md).
 */
export const legacyRequestActivities = {
  /** Sends the request as a user message (the `sendMessage` update the API uses); a retry finds the turn already sent. */
  async sendAnalysisRequest(input: {
    taskId: string;
    workflowId: string;
    message: SendMessageInput;
  }): Promise<{ turnId: string }> {
    const handle = Context.current().client.workflow.getHandle(input.workflowId);
    const summary = await handle.query(summaryQuery);
    const sent = summary.currentTurnId ?? summary.turns[0]?.turnId;
    if (sent) return { turnId: sent };
    return handle.executeUpdate(sendMessageUpdate, { args: [input.message] }).catch((err: unknown) => {
      if (!(err instanceof WorkflowUpdateFailedError)) throw err;
      // The conversation refused the message (e.g. longer than conversation.maxMessageChars): no retry changes that.
      throw new DatasetError(
        `the conversation refused the request: ${err.cause?.message ?? err.message}`,
        input.taskId,
      );
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
};
