import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { BatchApiClient, type BatchState } from '../../lib/llm/batch/batchApiClient';
import {
  BatchLayout,
  inputLineOf,
  parseResultLines,
  readBatchedRequest,
  submittedSchema,
  writeJsonAtomic,
  type BatchedRequest,
  type BatchStatusFile,
  type LineResult,
} from '../../lib/llm/batch/batchFiles';
import { ResponseCache } from '../../lib/llm/responseCache';
import { toChatResponse } from '../../lib/llm/openaiProvider';
import type { ChatMessage } from '../../lib/llm/types';
import { readJsonFile } from '../../lib/json';
import { readManifest } from '../../lib/runStore/manifest';
import { RunLayout } from '../../lib/runStore/runLayout';
import type { BatchOutcome } from '../../contracts/batch';
import type { WorkerDeps } from '../deps';
import { withHeartbeat } from '../heartbeat';

export interface SubmitBatchInput {
  runId: string;
  runDir: string;
  name: string;
  cacheKeys: string[];
}

export interface SubmittedBatch {
  batchId: string;
  fileId: string;
}

/** The batch activities: upload and create once, poll, collect into the response cache. */
export function batchActivities(deps: WorkerDeps) {
  return {
    /**
     * Writes the batch's input file from the calls' request files, then uploads it and creates the batch, each only
     * when not done before: a recorded id is used as is, an upload or batch made before a crash (before its id was
     * recorded) is found at the provider by file name and metadata tag.
     */
    submitLlmBatch: (input: SubmitBatchInput): Promise<SubmittedBatch> =>
      withHeartbeat(() => submit(deps, input), { everyMs: 2_000 }),

    /** One look at the batch (the workflow sleeps between looks); its status file is rewritten for the CLI and pages. */
    async pollLlmBatch(input: { runDir: string; name: string; batchId: string }): Promise<BatchState> {
      const state = await (await apiOf(deps, input.runDir)).state(input.batchId);
      writeStatus(input.runDir, input.name, state);
      return state;
    },

    /**
     * Downloads a finished batch's output and error files into its folder and hands every call its outcome: a reply
     * goes into the run's response cache (tagged with the batch, charged at the batch rate by the task that reads it);
     * a failed, missing or expired line, or every line of a refused batch, gets a marker that sends its call back as a
     * single request. A call already answered (by an earlier collect, or singly) is left as it is.
     */
    collectLlmBatch: (input: CollectBatchInput): Promise<BatchOutcome> =>
      withHeartbeat(() => collect(deps, input), { everyMs: 2_000 }),
  };
}

export type BatchActivities = ReturnType<typeof batchActivities>;

interface CollectBatchInput {
  runDir: string;
  name: string;
  batchId: string;
  cacheKeys: string[];
}

async function submit(deps: WorkerDeps, input: SubmitBatchInput): Promise<SubmittedBatch> {
  const layout = BatchLayout.ofRun(input.runDir);
  const recorded = await readJsonFile(layout.submittedPath(input.name), submittedSchema);
  if (recorded.kind === 'ok') return recorded.value;
  const requests = await Promise.all(input.cacheKeys.map((k) => readBatchedRequest(layout.requestPath(k))));
  const content = Buffer.from(requests.map((r) => `${inputLineOf(r)}\n`).join(''));
  writeJsonAtomic(layout.inputPath(input.name), content.toString('utf8'));
  const api = await apiOf(deps, input.runDir);
  const { fileId } = await api.uploadOnce(`sheetbench-${input.runId}-${input.name}.jsonl`, content);
  const { batchId } = await api.createOnce(`${input.runId}/${input.name}`, fileId);
  const submitted: SubmittedBatch = { batchId, fileId };
  writeJsonAtomic(layout.submittedPath(input.name), submitted);
  return submitted;
}

async function collect(deps: WorkerDeps, input: CollectBatchInput): Promise<BatchOutcome> {
  const layout = BatchLayout.ofRun(input.runDir);
  const api = await apiOf(deps, input.runDir);
  const state = await api.state(input.batchId);
  writeStatus(input.runDir, input.name, state);
  const results = await downloadResults(api, state, layout, input.name);
  const cache = new ResponseCache(new RunLayout(input.runDir).llmCacheDir);
  let answered = 0;
  for (const cacheKey of input.cacheKeys) {
    const request = await readBatchedRequest(layout.requestPath(cacheKey));
    const outcome = handOver(cache, layout, request, results.get(request.callKey), state);
    if (outcome) answered++;
  }
  const outcome: BatchOutcome = {
    name: input.name,
    batchId: input.batchId,
    status: state.status,
    answered,
    single: input.cacheKeys.length - answered,
    errors: state.errors,
  };
  await writeFile(layout.outcomePath(input.name), JSON.stringify(outcome, null, 2));
  return outcome;
}

async function apiOf(deps: WorkerDeps, runDir: string): Promise<BatchApiClient> {
  const manifest = await readManifest(runDir);
  return new BatchApiClient({
    baseUrl: manifest.llm.baseUrl ?? deps.config.llm.baseUrl,
    apiKey: deps.config.llm.apiKey,
    requestTimeoutMs: deps.config.llm.requestTimeoutMs,
  });
}

async function downloadResults(
  api: BatchApiClient,
  state: BatchState,
  layout: BatchLayout,
  name: string,
): Promise<Map<string, LineResult>> {
  const results = new Map<string, LineResult>();
  for (const [fileId, local] of [
    [state.outputFileId, 'output.jsonl'],
    [state.errorFileId, 'errors.jsonl'],
  ] as const) {
    if (!fileId) continue;
    const text = await api.content(fileId);
    const file = `${layout.batchDir(name)}/${local}`;
    writeJsonAtomic(file, text);
    for (const [id, result] of parseResultLines(text, file)) results.set(id, result);
  }
  return results;
}

/** True when the call's reply is (now) in the cache; false when it goes back to a single request. */
function handOver(
  cache: ResponseCache,
  layout: BatchLayout,
  request: BatchedRequest,
  result: LineResult | undefined,
  state: BatchState,
): boolean {
  if (existsSync(cache.pathOf(request.cacheKey))) return true;
  if (result?.ok) {
    const chat = { model: request.model, messages: request.messages as ChatMessage[] };
    try {
      const response = toChatResponse(result.completion, chat, undefined);
      cache.put(request.cacheKey, { ...response, batchId: state.id });
      return true;
    } catch (err) {
      return markSingle(layout, request, state, `its output line is not a usable reply (${String(err)})`);
    }
  }
  return markSingle(layout, request, state, reasonOf(result, state));
}

function markSingle(layout: BatchLayout, request: BatchedRequest, state: BatchState, reason: string): false {
  const file = layout.singlePath(request.cacheKey);
  if (!existsSync(file)) writeJsonAtomic(file, { batchId: state.id, reason });
  return false;
}

function reasonOf(result: LineResult | undefined, state: BatchState): string {
  if (result && !result.ok) return `batch ${state.id} line failed: ${result.reason}`;
  if (state.status === 'failed')
    return `batch ${state.id} was rejected by the provider: ${state.errors.join('; ') || 'no reason given'}`;
  if (state.status === 'expired') return `batch ${state.id} expired before answering this call`;
  if (state.status === 'cancelled') return `batch ${state.id} was cancelled before answering this call`;
  return `batch ${state.id} (${state.status}) has no line for this call in its output or error file`;
}

function writeStatus(runDir: string, name: string, state: BatchState): void {
  const status: BatchStatusFile = {
    name,
    batchId: state.id,
    status: state.status,
    calls: state.total,
    completed: state.completed,
    failed: state.failed,
    errors: state.errors,
    updatedAt: new Date().toISOString(),
  };
  writeJsonAtomic(BatchLayout.ofRun(runDir).statusPath(name), status);
}
