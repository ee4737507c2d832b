import {
  condition,
  getExternalWorkflowHandle,
  ParentClosePolicy,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import {
  batchCallSignal,
  batchQueueQuery,
  batchReplySignal,
  batchWorkflowId,
  type BatchCallRequest,
  type BatchOutcome,
  type BatchProgress,
  type BatchQueueInput,
} from '../../contracts/batch';
import { llmBatch } from './llmBatch';
import { childFailoverOptions, useFailover } from '../run/failover';

/** The queue ends after this long with nothing waiting and no batch out; the next call starts it again. */
const IDLE_MS = 10 * 60_000;

/**
 * One run's batch queue (`<run>/llm-batch-queue`, started by the first batched call's signal): collects the calls of
 * every task, per model, and sends them as a batch workflow (`llmBatch`) when `maxRequests` are waiting or `windowMs`
 * after the first one waited. A call it has seen is never sent twice: one asked again while its batch is out is only
 * remembered, one asked again after its batch finished is told at once that its reply (or its single-request marker)
 * is ready.
 */
export async function llmBatchQueue(input: BatchQueueInput): Promise<void> {
  useFailover(input.failover);
  const queue = new CallQueue(input);
  setHandler(batchCallSignal, (call) => queue.add(call));
  setHandler(batchQueueQuery, () => queue.view());
  for (;;) {
    await queue.tellAnsweredAgain();
    queue.sendDue();
    if (queue.idle()) {
      if (!(await condition(() => !queue.idle(), IDLE_MS))) return;
      continue;
    }
    await condition(() => queue.changed, queue.nextDueInMs());
    queue.changed = false;
  }
}

class CallQueue {
  private readonly waiting = new Map<string, BatchCallRequest[]>();
  private readonly firstWaitingAt = new Map<string, number>();
  private readonly sent = new Map<string, string>();
  private readonly finished = new Set<string>();
  private readonly askedAgain: BatchCallRequest[] = [];
  private readonly batches: BatchProgress[] = [];
  private out = 0;
  private started: number;
  changed = false;

  constructor(private readonly input: BatchQueueInput) {
    this.started = input.batchesStarted ?? 0;
  }

  add(call: BatchCallRequest): void {
    this.changed = true;
    if (this.finished.has(call.cacheKey)) this.askedAgain.push(call);
    if (this.sent.has(call.cacheKey) || this.isWaiting(call)) return;
    const list = this.waiting.get(call.model) ?? [];
    if (!list.length) this.firstWaitingAt.set(call.model, Date.now());
    this.waiting.set(call.model, [...list, call]);
  }

  idle(): boolean {
    return this.out === 0 && this.waiting.size === 0 && this.askedAgain.length === 0;
  }

  view(): { waiting: number; batches: BatchProgress[] } {
    return { waiting: [...this.waiting.values()].reduce((n, l) => n + l.length, 0), batches: this.batches };
  }

  /** Time until the oldest waiting call's window closes. */
  nextDueInMs(): number {
    const firsts = [...this.firstWaitingAt.values()];
    if (!firsts.length) return IDLE_MS;
    return Math.max(1, Math.min(...firsts) + this.input.settings.windowMs - Date.now());
  }

  async tellAnsweredAgain(): Promise<void> {
    const calls = this.askedAgain.splice(0);
    await Promise.all(
      calls.map(
        (c) =>
          getExternalWorkflowHandle(c.workflowId)
            .signal(batchReplySignal, c.cacheKey)
            .catch(() => undefined), // the task has ended: nobody to tell
      ),
    );
  }

  /** Sends every model's full batches, and what waited a whole window. */
  sendDue(): void {
    const { maxRequests, windowMs } = this.input.settings;
    for (const [model, list] of [...this.waiting]) {
      const due = list.length >= maxRequests || Date.now() - this.firstWaitingAt.get(model)! >= windowMs;
      if (!due) continue;
      const calls = list.slice(0, maxRequests);
      const rest = list.slice(maxRequests);
      if (rest.length) {
        this.waiting.set(model, rest);
        this.firstWaitingAt.set(model, Date.now());
      } else {
        this.waiting.delete(model);
        this.firstWaitingAt.delete(model);
      }
      this.send(model, calls);
    }
  }

  private isWaiting(call: BatchCallRequest): boolean {
    return (this.waiting.get(call.model) ?? []).some((c) => c.cacheKey === call.cacheKey);
  }

  private send(model: string, calls: BatchCallRequest[]): void {
    const name = `b${String(++this.started).padStart(4, '0')}`;
    for (const c of calls) this.sent.set(c.cacheKey, name);
    const progress: BatchProgress = { name, status: 'submitting', calls: calls.length, completed: 0, failed: 0 };
    this.batches.push(progress);
    this.out++;
    const { runId, runDir, settings, failover } = this.input;
    void startChild(llmBatch, {
      workflowId: batchWorkflowId(runId, name),
      args: [{ runId, runDir, name, model, calls, pollIntervalMs: settings.pollIntervalMs, failover }],
      ...childFailoverOptions(),
      parentClosePolicy: ParentClosePolicy.ABANDON,
      memo: { queue: workflowInfo().workflowId },
    })
      .then((child) => child.result())
      .then(
        (outcome: BatchOutcome) => {
          Object.assign(progress, { batchId: outcome.batchId, status: outcome.status });
          progress.completed = outcome.answered;
          progress.failed = outcome.single;
          // Every call now has its reply or its single-request marker on disk.
          for (const c of calls) this.finished.add(c.cacheKey);
        },
        // A batch workflow that failed left its calls without an outcome: asked again, they go into a new batch.
        (err: unknown) => Object.assign(progress, { status: `failed: ${String(err)}` }),
      )
      .finally(() => {
        for (const c of calls) this.sent.delete(c.cacheKey);
        this.out--;
        this.changed = true;
      });
  }
}
