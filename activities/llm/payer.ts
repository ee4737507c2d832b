import { activityInfo } from '@temporalio/activity';

/**
 * The payer of the model calls this activity makes (lib/llm/responseCache.ts `CachedCompleteOptions.payer`): its
 * execution, the same in every attempt — workflow id, workflow run id, activity id. Temporal records at most one result
 * per activity execution and starts another attempt only when no result was recorded, so a reply this payer received
 * in an earlier attempt reached no workflow yet: the attempt that delivers a result is the one that carries its cost.
 * Undefined outside a workflow's activity.
 */
export function payerOfThisActivity(): string | undefined {
  const { workflowExecution, activityId } = activityInfo();
  if (!workflowExecution) return undefined;
  return `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
}
