/**
 * History events per task of one run, by event type, over every workflow the run's search attribute names (its task
 * workflows and the run workflow itself): what the Temporal server stored and dispatched for each task (workflow
 * tasks, activities, local-activity markers, search-attribute upserts, signals, child starts).
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { SA } from '../lib/temporal/searchAttributes';

const { EventType } = proto.temporal.api.enums.v1;

export async function eventsByType(
  client: Client,
  runId: string,
  tasks: number,
): Promise<{ total: number; workflows: number; byType: Record<string, number> }> {
  const counts = new Map<string, number>();
  let workflows = 0;
  for await (const info of client.workflow.list({ query: `${SA.runId.name}="${runId}"` })) {
    workflows++;
    const history = await client.workflow.getHandle(info.workflowId, info.runId).fetchHistory();
    for (const e of history.events ?? []) {
      const type = EventType[e.eventType ?? 0].replace('EVENT_TYPE_', '');
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
  }
  const per = (n: number) => Math.round((n / tasks) * 100) / 100;
  const byType = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([t, n]) => [t, per(n)]));
  return { total: per([...counts.values()].reduce((a, b) => a + b, 0)), workflows, byType };
}
