import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { BatchStore, StoredFile } from './batchStore';
import { errorBody } from './completionBody';
import { readBody } from './requestBody';
import type { RequestLog } from './requestLog';

const createBatchSchema = z.object({
  input_file_id: z.string(),
  endpoint: z.string(),
  completion_window: z.string(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

type Reply = { status: number; body: unknown; raw?: Buffer };

/** Whether a path belongs to the files and batches API (OpenAI's `/v1/files…`, `/v1/batches…`). */
export function isBatchApiPath(path: string): boolean {
  return (
    path === '/v1/files' || path.startsWith('/v1/files/') || path === '/v1/batches' || path.startsWith('/v1/batches/')
  );
}

/**
 * OpenAI's files and batches endpoints over a BatchStore: upload (multipart, purpose `batch`), list, retrieve and read
 * a file's content; create, list, retrieve and cancel a batch. Every request is logged with its route.
 */
export async function handleBatchApi(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  store: BatchStore,
  log: RequestLog,
  seq: () => number,
): Promise<void> {
  const started = Date.now();
  const body = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
  const reply = await route(req, path, body, store);
  const route_ = `${req.method ?? ''} ${path.replace(/\/(file-|batch_)[0-9a-f]+/, '/$1…')}`;
  log.add({
    seq: seq(),
    time: new Date(started).toISOString(),
    bodyHash: '',
    messages: [],
    status: reply.status,
    answered: false,
    durationMs: Date.now() - started,
    route: route_,
    ...(batchIdOf(path, reply) ? { batchId: batchIdOf(path, reply) } : {}),
  });
  if (req.method === 'POST' && path === '/v1/batches' && store.createReplyDelayMs > 0)
    await sleep(store.createReplyDelayMs);
  if (reply.raw) {
    res.writeHead(reply.status, { 'content-type': 'application/octet-stream', 'content-length': reply.raw.length });
    res.end(reply.raw);
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function route(req: IncomingMessage, path: string, body: Buffer, store: BatchStore): Promise<Reply> {
  const [, , kind, id, action] = path.split('/'); // '', 'v1', 'files'|'batches', id?, action?
  const method = req.method ?? '';
  if (kind === 'files') return fileRoute(method, id, action, req, body, store);
  if (method === 'POST' && !id) return createBatch(body, store);
  if (method === 'GET' && !id) return { status: 200, body: listOf(await store.list()) };
  if (method === 'GET' && id && !action) return found(await store.retrieve(id), `batch ${id}`);
  if (method === 'POST' && id && action === 'cancel') return found(await store.cancel(id), `batch ${id}`);
  return notFound(`no route ${method} ${path}`);
}

async function fileRoute(
  method: string,
  id: string | undefined,
  action: string | undefined,
  req: IncomingMessage,
  body: Buffer,
  store: BatchStore,
): Promise<Reply> {
  if (method === 'POST' && !id) return upload(req, body, store);
  if (method === 'GET' && !id) {
    const purpose = new URL(req.url ?? '/', 'http://x').searchParams.get('purpose');
    const files = [...store.files.values()].filter((f) => !purpose || f.purpose === purpose).reverse();
    return { status: 200, body: listOf(files.map(publicFile)) };
  }
  const file = id ? store.files.get(id) : undefined;
  if (method === 'GET' && action === 'content')
    return file ? { status: 200, body: null, raw: file.content } : missing(id);
  if (method === 'GET' && !action) return file ? { status: 200, body: publicFile(file) } : missing(id);
  return notFound(`no route ${method} /v1/files/${id ?? ''}`);
}

/** `multipart/form-data` with `purpose` and `file`, parsed by the platform's own form-data reader. */
async function upload(req: IncomingMessage, body: Buffer, store: BatchStore): Promise<Reply> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
  } catch {
    return badRequest('expected multipart/form-data with fields purpose and file');
  }
  const purpose = form.get('purpose');
  const file = form.get('file');
  if (typeof purpose !== 'string' || !(file instanceof Blob))
    return badRequest("fields 'purpose' and 'file' are required");
  const name = file instanceof File ? file.name : 'upload';
  const stored = store.addFile(name, purpose, Buffer.from(await file.arrayBuffer()));
  return { status: 200, body: publicFile(stored) };
}

function createBatch(body: Buffer, store: BatchStore): Reply {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return badRequest('request body is not JSON');
  }
  const parsed = createBatchSchema.safeParse(json);
  if (!parsed.success)
    return badRequest(`invalid batch: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  const { input_file_id, endpoint, completion_window, metadata } = parsed.data;
  if (endpoint !== '/v1/chat/completions') return badRequest(`endpoint ${endpoint} is not supported (scripted-llm)`);
  if (completion_window !== '24h') return badRequest("completion_window must be '24h'");
  const file = store.files.get(input_file_id);
  if (!file) return notFound(`No such File object: ${input_file_id}`);
  if (file.purpose !== 'batch') return badRequest(`file ${input_file_id} has purpose ${file.purpose}, not batch`);
  return { status: 200, body: store.create(input_file_id, endpoint, completion_window, metadata ?? null) };
}

function publicFile(file: StoredFile): Omit<StoredFile, 'content'> {
  const { content: _content, ...rest } = file;
  return rest;
}

function listOf<T extends { id: string }>(data: T[]) {
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false };
}

function found(value: unknown, what: string): Reply {
  return value ? { status: 200, body: value } : notFound(`No such object: ${what}`);
}

function missing(id: string | undefined): Reply {
  return notFound(`No such File object: ${id ?? ''}`);
}

function notFound(message: string): Reply {
  return { status: 404, body: errorBody(message, 'invalid_request_error') };
}

function badRequest(message: string): Reply {
  return { status: 400, body: errorBody(message, 'invalid_request_error') };
}

function batchIdOf(path: string, reply: Reply): string | undefined {
  const inPath = /\/batches\/(batch_[0-9a-f]+)/.exec(path)?.[1];
  if (inPath) return inPath;
  const id = (reply.body as { id?: unknown; object?: unknown } | null)?.id;
  return (reply.body as { object?: unknown } | null)?.object === 'batch' && typeof id === 'string' ? id : undefined;
}
