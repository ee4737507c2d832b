import { existsSync, writeFileSync } from 'node:fs';
import { ApplicationFailure, Context, activityInfo } from '@temporalio/activity';
import type { ChatRequest, ChatResponse } from '../../lib/llm/types';
import { cacheKeyOf, type ResponseCache } from '../../lib/llm/responseCache';
import { chatCompletionParams, samplingFieldsOf } from '../../lib/llm/openaiProvider';
import { BatchLayout, writeJsonAtomic, type BatchedRequest } from '../../lib/llm/batch/batchFiles';
import { FailureTypes } from '../../lib/failureTypes';
import type { RunContext } from '../../lib/runStore/runContext';
import {
  BATCH_QUEUE_WORKFLOW,
  batchCallSignal,
  batchQueueWorkflowId,
  type BatchCallRequest,
  type BatchQueueInput,
} from '../../contracts/batch';
import type { WorkerDeps } from '../deps';

/**
 * A model call of a `run --batch` run: its reply when a batch (or an earlier attempt) has it, `undefined` when it is to
 * be asked as a single request (its batch line failed, was missing or expired, or the batch was refused); otherwise
 * the call joins the run's batch queue and this throws a BatchPending failure, which the task workflow waits out
 * (workflows/run/batchedCall.ts) before asking again. The request goes to the queue as a file, never as a payload.
 */
export async function batchedReply(
  deps: WorkerDeps,
  ctx: RunContext,
  cache: ResponseCache,
  request: ChatRequest,
  callKey: string,
): Promise<ChatResponse | undefined> {
  const batch = ctx.manifest.llm.batch;
  if (!batch) return undefined;
  const cacheKey = cacheKeyOf(request, callKey);
  const hit = await cache.get(cacheKey);
  if (hit) return hit.batchId ? chargedOnce(cache, cacheKey, hit, priceFactorOf(deps, request.model, batch)) : hit;
  const layout = BatchLayout.ofRun(ctx.layout.root);
  if (existsSync(layout.singlePath(cacheKey))) return undefined;
  writeRequestOnce(layout, deps, ctx, request, cacheKey, callKey);
  await enqueue(deps, ctx, {
    cacheKey,
    callKey,
    model: request.model,
    workflowId: callerWorkflowId(),
  });
  throw ApplicationFailure.create({
    message: `model call ${callKey} is waiting for a batch`,
    type: FailureTypes.BatchPending,
    nonRetryable: true,
    details: [cacheKey],
  });
}

/**
 * A batch's reply is charged (at the batch rate) by the first activity that reads it, once: a later read of the same
 * call (a retry after a crash, a rerun) finds it as any cached reply, at no cost. The claim is an exclusive file
 * creation beside the cache entry.
 */
function chargedOnce(cache: ResponseCache, cacheKey: string, hit: ChatResponse, priceFactor: number): ChatResponse {
  try {
    writeFileSync(`${cache.pathOf(cacheKey)}.charged`, callerWorkflowId(), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return hit;
    throw err;
  }
  return { ...hit, cached: false, priceFactor };
}

/** `llm.prices.<model>.batchFactor` when given, else the run's `llm.batch.priceFactor`. */
function priceFactorOf(deps: WorkerDeps, model: string, batch: { priceFactor: number }): number {
  return deps.config.llm.prices[model]?.batchFactor ?? batch.priceFactor;
}

/** The batch line's body, exactly as a single request would send it (the model's token field, sampling, effort). */
function writeRequestOnce(
  layout: BatchLayout,
  deps: WorkerDeps,
  ctx: RunContext,
  request: ChatRequest,
  cacheKey: string,
  callKey: string,
): void {
  const file = layout.requestPath(cacheKey);
  if (existsSync(file)) return;
  const settings = { ...deps.config.llm, ...ctx.manifest.llm };
  const body = chatCompletionParams(request, samplingFieldsOf(request, settings));
  const stored: BatchedRequest = {
    cacheKey,
    callKey,
    model: request.model,
    body: body,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  writeJsonAtomic(file, stored);
}

/** Signal-with-start: the run's queue is started by the first call that needs it (again after it ended idle). */
async function enqueue(deps: WorkerDeps, ctx: RunContext, call: BatchCallRequest): Promise<void> {
  const { runId, llm } = ctx.manifest;
  const input: BatchQueueInput = { runId, runDir: ctx.layout.root, settings: llm.batch! };
  await Context.current().client.workflow.signalWithStart(BATCH_QUEUE_WORKFLOW, {
    workflowId: batchQueueWorkflowId(runId),
    taskQueue: deps.config.temporal.taskQueue,
    args: [input],
    signal: batchCallSignal,
    signalArgs: [call],
  });
}

/** The workflow whose activity this is: it waits for the batch and is signalled when the reply is ready. */
function callerWorkflowId(): string {
  const id = activityInfo().workflowExecution?.workflowId;
  if (!id) throw new Error('a batched model call must run in a workflow activity (it has no workflow to signal)');
  return id;
}
