import { appendFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const EventType = temporal.api.enums.v1.EventType;

/**
 * Where a test sat idle waiting on Temporal's timeouts (issue 33 §6): with SHEETBENCH_TEST_TIMEOUT_REPORT=<file>, an
 * e2e env appends, before it closes, one line per activity retried after a timeout or failure (the retry's start is
 * the only trace a retried attempt leaves in a history), per workflow task timed out, and each workflow's span.
 * For example: `SHEETBENCH_TEST_TIMEOUT_REPORT=/tmp/t.txt npx vitest run test/e2e/crash.test.ts`.
 */
export async function reportTimeouts(client: Client, file: string): Promise<void> {
  for await (const wf of client.workflow.list()) {
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    const lines = timeoutLines(history.events ?? []);
    appendFileSync(file, lines.map((l) => `${wf.workflowId} ${l}\n`).join(''));
  }
}

function timeoutLines(events: HistoryEvent[]): string[] {
  const first = eventMs(events[0]);
  const at = (e: HistoryEvent) => `at +${seconds(eventMs(e) - first)}`;
  const scheduled = new Map<number, { name: string; ms: number }>();
  const lines: string[] = [];
  for (const e of events) {
    const id = Number(e.eventId);
    const activity = e.activityTaskScheduledEventAttributes;
    if (activity) scheduled.set(id, { name: activity.activityType?.name ?? '?', ms: eventMs(e) });
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED)
      scheduled.set(id, { name: 'wft', ms: eventMs(e) });
    const started = e.activityTaskStartedEventAttributes;
    if (started && (started.attempt ?? 1) > 1) {
      const s = scheduled.get(Number(started.scheduledEventId));
      const cause = started.lastFailure?.timeoutFailureInfo
        ? `timeout type ${started.lastFailure.timeoutFailureInfo.timeoutType}`
        : started.lastFailure?.message?.slice(0, 80);
      lines.push(
        `activity ${s?.name} attempt ${started.attempt} started ${seconds(eventMs(e) - (s?.ms ?? eventMs(e)))} after scheduled (last: ${cause}) ${at(e)}`,
      );
    }
    const wft = e.workflowTaskTimedOutEventAttributes;
    if (wft) {
      const s = scheduled.get(Number(wft.scheduledEventId));
      lines.push(`workflow task timeout type ${wft.timeoutType} after ${seconds(eventMs(e) - (s?.ms ?? 0))} ${at(e)}`);
    }
  }
  lines.push(`span ${seconds(eventMs(events.at(-1)) - first)}`);
  return lines;
}

function eventMs(e: HistoryEvent | undefined): number {
  const t = e?.eventTime;
  return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
