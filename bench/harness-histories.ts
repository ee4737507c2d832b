/**
 * Timings read from Temporal workflow histories (shared by the run benches): events per history, and per activity
 * the schedule→start latency (waiting for a worker slot) and start→close time (the work itself).
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { tsToMs } from '@temporalio/common/lib/time';

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const { EventType } = proto.temporal.api.enums.v1;

export interface ActivityTiming {
  type: string;
  scheduleToStartMs: number;
  runMs: number;
}

export interface WorkflowTiming {
  workflowId: string;
  runId: string;
  events: number;
  /** First event to last event. */
  wallMs: number;
  activities: ActivityTiming[];
  /** Local activities (they run inside a workflow task, so their time would otherwise look like orchestration). */
  localActivities: ActivityTiming[];
  /** A signal command's round trip: initiated → the server reports it delivered (0 for signals sent by an activity). */
  signalRoundTripMs: number;
  /** Start → the first workflow task's schedule (for a child: the server records the start in the parent first). */
  firstWorkflowTaskDelayMs: number;
  /** Workflow-task latencies: schedule → start (waiting for a workflow slot/poller), start → complete (the worker's turn). */
  workflowTasks: { scheduleToStartMs: number[]; runMs: number[] };
  /** Child workflows this history started, and in how many distinct workflow tasks (1 per task = one start per round trip). */
  childStarts: { count: number; workflowTasks: number };
}

export async function workflowTiming(client: Client, workflowId: string, runId?: string): Promise<WorkflowTiming> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const events = history.events ?? [];
  return {
    workflowId,
    runId: runId ?? '',
    events: events.length,
    wallMs: events.length ? timeOf(events[events.length - 1]) - timeOf(events[0]) : 0,
    activities: activityTimings(events),
    localActivities: localActivityTimings(events),
    firstWorkflowTaskDelayMs: firstWorkflowTaskDelay(events),
    signalRoundTripMs: signalRoundTrips(events),
    workflowTasks: workflowTaskTimings(events),
    childStarts: childStartsOf(events),
  };
}

function workflowTaskTimings(events: HistoryEvent[]): WorkflowTiming['workflowTasks'] {
  const out: WorkflowTiming['workflowTasks'] = { scheduleToStartMs: [], runMs: [] };
  let scheduled = 0;
  let started = 0;
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) scheduled = timeOf(e);
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
      started = timeOf(e);
      out.scheduleToStartMs.push(started - scheduled);
    }
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) out.runMs.push(timeOf(e) - started);
  }
  return out;
}

function firstWorkflowTaskDelay(events: HistoryEvent[]): number {
  const scheduled = events.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED);
  return scheduled && events.length ? timeOf(scheduled) - timeOf(events[0]) : 0;
}

function signalRoundTrips(events: HistoryEvent[]): number {
  const initiated = new Map(
    events
      .filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes)
      .map((e) => [Number(e.eventId), timeOf(e)]),
  );
  return events.reduce((ms, e) => {
    const done =
      e.externalWorkflowExecutionSignaledEventAttributes ?? e.signalExternalWorkflowExecutionFailedEventAttributes;
    const from = done ? initiated.get(Number(done.initiatedEventId)) : undefined;
    return from === undefined ? ms : ms + timeOf(e) - from;
  }, 0);
}

function childStartsOf(events: HistoryEvent[]): WorkflowTiming['childStarts'] {
  const tasks = new Set<number>();
  let count = 0;
  for (const e of events) {
    const initiated = e.startChildWorkflowExecutionInitiatedEventAttributes;
    if (!initiated) continue;
    count++;
    tasks.add(Number(initiated.workflowTaskCompletedEventId));
  }
  return { count, workflowTasks: tasks.size };
}

/** Every execution of a workflow id, oldest first: one per continue-as-new. */
export async function executionsOf(client: Client, workflowId: string): Promise<string[]> {
  const runs: { runId: string; start: number }[] = [];
  for await (const info of client.workflow.list({ query: `WorkflowId="${workflowId}"` })) {
    runs.push({ runId: info.runId, start: info.startTime.getTime() });
  }
  return runs.sort((a, b) => a.start - b.start).map((r) => r.runId);
}

/** One line per history event: ms since the first event, ms since the previous one, the event type and its detail. */
export async function workflowTimeline(client: Client, workflowId: string): Promise<string[]> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const first = events.length ? timeOf(events[0]) : 0;
  let previous = first;
  return events.map((e) => {
    const t = timeOf(e);
    const line = `${String(t - first).padStart(5)} ms (+${String(t - previous).padStart(3)})  ${EventType[e.eventType ?? 0].replace('EVENT_TYPE_', '')} ${eventDetail(e)}`;
    previous = t;
    return line.trimEnd();
  });
}

function eventDetail(e: HistoryEvent): string {
  return (
    e.activityTaskScheduledEventAttributes?.activityType?.name ??
    (e.markerRecordedEventAttributes
      ? [e.markerRecordedEventAttributes.markerName, localActivityData(e)?.activity_type].filter(Boolean).join(' ')
      : undefined) ??
    Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}).join(',') ??
    ''
  );
}

/**
 * Core records a local activity's completion as "workflow time when it was scheduled + its runtime", and workflow time
 * is the workflow task's start, advanced by each local activity that completes in it; so each runtime is its
 * completion minus the previous one's (or the task's start).
 */
function localActivityTimings(events: HistoryEvent[]): ActivityTiming[] {
  const out: ActivityTiming[] = [];
  let workflowTime = 0;
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) workflowTime = timeOf(e);
    const data = localActivityData(e);
    if (!data?.complete_time) continue;
    const completed = Number(data.complete_time.seconds) * 1000 + data.complete_time.nanos / 1e6;
    out.push({ type: data.activity_type, scheduleToStartMs: 0, runMs: Math.max(0, completed - workflowTime) });
    workflowTime = Math.max(workflowTime, completed);
  }
  return out;
}

interface LocalActivityMarkerData {
  activity_type: string;
  complete_time?: { seconds: number | string; nanos: number } | null;
}

function localActivityData(e: HistoryEvent): LocalActivityMarkerData | undefined {
  const marker = e.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return undefined;
  const data = marker.details?.data?.payloads?.[0]?.data;
  return data ? (JSON.parse(Buffer.from(data).toString('utf8')) as LocalActivityMarkerData) : undefined;
}

function activityTimings(events: HistoryEvent[]): ActivityTiming[] {
  const byId = new Map(events.map((e) => [Number(e.eventId), e]));
  const out: ActivityTiming[] = [];
  for (const e of events) {
    const closed =
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskTimedOutEventAttributes;
    if (!closed || !isActivityClose(e)) continue;
    const scheduled = byId.get(Number(closed.scheduledEventId));
    const started = byId.get(Number(closed.startedEventId));
    if (!scheduled || !started) continue;
    out.push({
      type: scheduled.activityTaskScheduledEventAttributes?.activityType?.name ?? '?',
      scheduleToStartMs: timeOf(started) - timeOf(scheduled),
      runMs: timeOf(e) - timeOf(started),
    });
  }
  return out;
}

function isActivityClose(e: HistoryEvent): boolean {
  return (
    e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED ||
    e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED ||
    e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT
  );
}

function timeOf(e: HistoryEvent): number {
  return tsToMs(e.eventTime);
}

/** Sum of `ms` per key. */
export function sumBy<T>(items: T[], key: (t: T) => string, ms: (t: T) => number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + ms(item);
  return out;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function mapValues(o: Record<string, number>, f: (v: number) => number): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(f(v))]));
}

export const round = (v: number) => Math.round(v * 100) / 100;

/** A workflow task that took longer than the SDK's TMPRL1104 warning threshold (5 s): when it started, how long it ran. */
export interface SlowWorkflowTask {
  workflowId: string;
  startedAtMs: number;
  runMs: number;
  /** What the task did: the commands its completion recorded (e.g. `SignalExternal×32`, `LocalActivity`). */
  outcome: string;
  /** The local activities it ran, each with its time (from the previous one's completion, the first from the task's start). */
  localActivities: Array<{ type: string; ms: number }>;
}

/** The workflow tasks of one history that ran (started → completed) longer than `thresholdMs`. */
export async function slowWorkflowTasks(
  client: Client,
  workflowId: string,
  runId: string | undefined,
  thresholdMs: number,
): Promise<SlowWorkflowTask[]> {
  const events = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
  const out: SlowWorkflowTask[] = [];
  let started = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) started = timeOf(e);
    if (e.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED || timeOf(e) - started <= thresholdMs) continue;
    const after: string[] = [];
    const localActivities: Array<{ type: string; ms: number }> = [];
    let previous = started;
    for (
      let j = i + 1;
      j < events.length && events[j].eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED;
      j++
    ) {
      after.push(EventType[events[j].eventType ?? 0].replace('EVENT_TYPE_', ''));
      const la = localActivityData(events[j]) as
        { activity_type?: string; complete_time?: { seconds: number; nanos: number } } | undefined;
      if (la?.activity_type && la.complete_time) {
        const done = la.complete_time.seconds * 1000 + Math.round(la.complete_time.nanos / 1e6);
        localActivities.push({ type: la.activity_type, ms: done - previous });
        previous = done;
      }
    }
    const counts = new Map<string, number>();
    for (const a of after) counts.set(a, (counts.get(a) ?? 0) + 1);
    out.push({
      workflowId,
      startedAtMs: started,
      runMs: timeOf(e) - started,
      outcome: [...counts].map(([k, n]) => (n > 1 ? `${k}×${n}` : k)).join(' ') || 'nothing',
      localActivities,
    });
  }
  return out;
}
