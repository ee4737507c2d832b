import type { Client, WorkflowHandle } from '@temporalio/client';

// temporal.api.enums.v1 values (TaskQueueKind NORMAL, TaskQueueType WORKFLOW), without depending on @temporalio/proto.
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/** A poller seen more recently than this is a live worker (long polls last about a minute). */
const LIVE_POLLER_MS = 75_000;

/** Whether any worker polls the run workflow's task queue right now (DescribeTaskQueue), and the queue's name. */
export async function workerServing(
  client: Client,
  handle: WorkflowHandle,
): Promise<{ serving: boolean; taskQueue: string }> {
  const { taskQueue } = await handle.describe();
  const res = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
    taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
  });
  const now = Date.now();
  const serving = (res.pollers ?? []).some((p) => {
    const seen = p.lastAccessTime;
    const ms = seen ? Number(seen.seconds ?? 0) * 1000 + Math.floor((seen.nanos ?? 0) / 1e6) : 0;
    return now - ms < LIVE_POLLER_MS;
  });
  return { serving, taskQueue };
}

/** Says that no worker serves the run, what that means for this request, and how to start one. */
export function noWorkerNote(
  runId: string,
  taskQueue: string,
  consequence = 'it takes effect when one starts',
): string {
  return `no worker is serving run ${runId} (nothing polls task queue ${taskQueue}): ${consequence} — \`sheetbench resume ${runId}\` or \`sheetbench worker\``;
}
