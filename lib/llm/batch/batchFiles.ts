import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { readJsonFile } from '../../json';

/**
 * A run's batch folder (`<run>/batches/`): the requests waiting for a batch, each batch's files, and the calls a
 * batch could not answer. Requests and replies travel between activities as these files, never in workflow payloads.
 */
export class BatchLayout {
  constructor(readonly root: string) {}

  static ofRun(runDir: string): BatchLayout {
    return new BatchLayout(path.join(runDir, 'batches'));
  }
  requestPath(cacheKey: string): string {
    return path.join(this.root, 'requests', `${cacheKey}.json`);
  }
  /** A call its batch did not answer: asked again as a single request. */
  singlePath(cacheKey: string): string {
    return path.join(this.root, 'single', `${cacheKey}.json`);
  }
  batchDir(name: string): string {
    return path.join(this.root, name);
  }
  inputPath(name: string): string {
    return path.join(this.batchDir(name), 'input.jsonl');
  }
  submittedPath(name: string): string {
    return path.join(this.batchDir(name), 'submitted.json');
  }
  statusPath(name: string): string {
    return path.join(this.batchDir(name), 'status.json');
  }
  outcomePath(name: string): string {
    return path.join(this.batchDir(name), 'outcome.json');
  }
}

/** One call waiting for a batch: its identities and the request body as the chat endpoint would get it. */
export const batchedRequestSchema = z.object({
  cacheKey: z.string(),
  callKey: z.string(),
  model: z.string(),
  body: z.record(z.string(), z.unknown()),
  /** The request's messages, for a usage estimate when a reply has none. */
  messages: z.array(z.object({ role: z.string(), content: z.string() }).loose()),
});
export type BatchedRequest = z.infer<typeof batchedRequestSchema>;

/** A batch's status as its last poll saw it (`<run>/batches/<name>/status.json`): what `status` and the run page show. */
export const batchStatusSchema = z.object({
  name: z.string(),
  batchId: z.string(),
  status: z.string(),
  calls: z.number(),
  completed: z.number(),
  failed: z.number(),
  errors: z.array(z.string()),
  updatedAt: z.string(),
});
export type BatchStatusFile = z.infer<typeof batchStatusSchema>;

export const submittedSchema = z.object({ fileId: z.string(), batchId: z.string() });

/** Why a call went back to a single request: its batch line failed, was missing or expired, or the batch was refused. */
export const singleMarkerSchema = z.object({ batchId: z.string().optional(), reason: z.string() });

/** Written atomically (temp file + rename): a reader sees nothing or all of it. */
export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, typeof value === 'string' ? value : JSON.stringify(value));
  renameSync(tmp, file);
}

export async function readBatchedRequest(file: string): Promise<BatchedRequest> {
  const read = await readJsonFile(file, batchedRequestSchema);
  if (read.kind === 'missing') throw new Error(`batched request ${file} is missing`);
  return read.value;
}

/** The batch input file's line of one call: its custom_id is the call key (unique in a run). */
export function inputLineOf(request: BatchedRequest): string {
  return JSON.stringify({
    custom_id: request.callKey,
    method: 'POST',
    url: '/v1/chat/completions',
    body: request.body,
  });
}

/** What a batch's output or error file says of one line. */
export type LineResult = { ok: true; completion: ChatCompletion } | { ok: false; reason: string };

const resultLineSchema = z.object({
  custom_id: z.string(),
  response: z.object({ status_code: z.number(), body: z.unknown() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** The lines of an output or error file, by custom_id; a line that is not a result is named in the error. */
export function parseResultLines(text: string, file: string): Map<string, LineResult> {
  const results = new Map<string, LineResult>();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const parsed = resultLineSchema.safeParse(safeJson(line));
    if (!parsed.success) throw new Error(`batch result file ${file}: line ${i + 1} is not a batch result line`);
    results.set(parsed.data.custom_id, resultOf(parsed.data));
  });
  return results;
}

function resultOf(line: z.infer<typeof resultLineSchema>): LineResult {
  if (line.response?.status_code === 200 && !line.error)
    return { ok: true, completion: line.response.body as ChatCompletion };
  if (line.error) return { ok: false, reason: `${line.error.code ?? 'error'}: ${line.error.message ?? ''}` };
  const message = (line.response?.body as { error?: { message?: string } } | undefined)?.error?.message;
  return { ok: false, reason: `HTTP ${line.response?.status_code ?? '?'}${message ? `: ${message}` : ''}` };
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
