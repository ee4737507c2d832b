import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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
import { failoverInput, failoverStartOptions } from '../../lib/temporal/failover';

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
  payer: string | undefined,
): Promise<ChatResponse | undefined> {
  const batch = ctx.manifest.llm.batch;
  if (!batch) return undefined;
  const cacheKey = cacheKeyOf(request, callKey);
  const hit = await cache.get(cacheKey, payer);
  if (hit?.batchId) return chargedOnce(cache, cacheKey, hit, priceFactorOf(deps, request.model, batch), payer);
  if (hit) return hit;
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
 * A batch's reply is charged (at the batch rate) to the first activity that reads it, once: the claim is an exclusive
 * file creation beside the cache entry, holding that activity's payer (activities/llm/payer.ts). A later attempt of
 * the same activity (the one that claimed it was killed before its result, with the cost, reached the workflow) is
 * charged again in its place; any other read (a rerun, another call) finds it as any cached reply, at no cost.
 */
function chargedOnce(
  cache: ResponseCache,
  cacheKey: string,
  hit: ChatResponse,
  priceFactor: number,
  payer: string | undefined,
): ChatResponse {
  const claim = `${cache.pathOf(cacheKey)}.charged`;
  if (claimed(claim, payer ?? callerWorkflowId()) || (payer !== undefined && readFileSync(claim, 'utf8') === payer))
    return { ...hit, cached: false, priceFactor };
  return { ...hit, cached: true };
}

/**
 * Creates `claim` holding `holder`, or false when it exists. Written beside it and hard-linked into place, so a kill
 * at any instant leaves either no claim or a whole one (never an empty claim its holder would not recognize).
 */
function claimed(claim: string, holder: string): boolean {
  const staged = `${claim}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(staged, holder);
  try {
    linkSync(staged, claim);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(staged);
  }
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
  const input: BatchQueueInput = {
    runId,
    runDir: ctx.layout.root,
    settings: llm.batch!,
    failover: failoverInput(deps.config),
  };
  await Context.current().client.workflow.signalWithStart(BATCH_QUEUE_WORKFLOW, {
    workflowId: batchQueueWorkflowId(runId),
    taskQueue: deps.config.temporal.taskQueue,
    args: [input],
    ...failoverStartOptions(deps.config),
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
