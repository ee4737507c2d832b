import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { completionBody, errorBody } from './completionBody';
import { RequestLog, type RequestLogEntry } from './requestLog';
import { BodyTooLargeError, parseChatRequest, readBody } from './requestBody';
import { ScriptState } from './scriptState';
import { handleBatchApi, isBatchApiPath } from './batchApi';
import { BatchStore } from './batchStore';
import { DEFAULT_REASONING_TOKENS, isStrictReasoningModel, strictRefusalOf } from './strictReasoning';
import { replyOf, type Fault, type ScriptedReply, type ScriptedRequest, type Script } from './script';

export interface ScriptedServerOptions {
  script?: Script;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Mirror the request log to this JSONL file (for tests that read it from another process). */
  logFile?: string;
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (else 401, as OpenAI answers a wrong key). */
  apiKey?: string;
}

export interface ScriptedServer {
  /** Base URL for an OpenAI client; ends with `/v1`. */
  url: string;
  port: number;
  log: RequestLogEntry[];
  /**
   * Chat requests received and not yet logged: being read, waiting on a latency or a held reply, or being answered. A
   * kill test that wants no reply to reach a client in the moment after its kill waits until only its own held call
   * is left here (a request already received can otherwise be answered to a client killed a moment before).
   */
  readonly inFlight: number;
  /** Replaces the script and resets every rule's `times` count. */
  setScript(script: Script): void;
  /** The next `count` chat requests get `fault`, ahead of any rule. */
  inject(fault: Fault, count?: number): void;
  /** Require this API key from now on (undefined: accept any). */
  setApiKey(key: string | undefined): void;
  close(): Promise<void>;
}

const CALL_KEY_HEADER = 'x-sheetbench-call';

/** Faults that replace the reply entirely; the others (slow, truncated) still need reply text. */
function replacesReply(fault: Fault): boolean {
  return fault.kind !== 'slow' && fault.kind !== 'truncated';
}

interface Outcome {
  status: number;
  answered: boolean;
  rule?: string;
  fault?: string;
}

/** A real OpenAI-compatible HTTP server answering from a script, with injectable faults and a log of every request. */
export async function startScriptedServer(opts: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const state = new ScriptState(opts.script ?? { rules: [] });
  state.apiKey = opts.apiKey;
  const log = new RequestLog(opts.logFile);
  const batches = new BatchStore(state, log);
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    handle(req, res, state, log, batches)
      .catch((err: unknown) => {
        if (!res.headersSent)
          sendJson(res, 500, errorBody(`scripted-llm internal error: ${String(err)}`, 'server_error'));
      })
      .finally(() => inFlight--);
  });
  const address = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');
  return {
    url: `http://${address.address}:${address.port}/v1`,
    port: address.port,
    log: log.entries,
    get inFlight() {
      return inFlight;
    },
    setScript: (script) => state.reset(script),
    inject: (fault, count = 1) => state.inject(fault, count),
    setApiKey: (key) => void (state.apiKey = key),
    close: () => closeServer(server),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: ScriptState,
  log: RequestLog,
  batches: BatchStore,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (state.apiKey !== undefined && req.headers.authorization !== `Bearer ${state.apiKey}`) {
    return sendJson(res, 401, errorBody('Incorrect API key provided', 'invalid_request_error'));
  }
  if (req.method === 'GET' && path === '/v1/models') {
    return sendJson(res, 200, {
      object: 'list',
      data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'sheetbench' }],
    });
  }
  if (isBatchApiPath(path)) return handleBatchApi(req, res, path, batches, log, () => ++state.seq);
  if (req.method !== 'POST' || path !== '/v1/chat/completions') {
    return sendJson(res, 404, errorBody(`no route ${req.method} ${path}`, 'invalid_request_error'));
  }
  const started = Date.now();
  const seq = ++state.seq;
  const clientGone = watchClient(res);
  const base = { seq, time: new Date(started).toISOString(), callKey: headerOf(req) };
  const reject = (status: number, message: string, bodyHash: string) => {
    sendJson(res, status, errorBody(message, 'invalid_request_error'));
    log.add({ ...base, bodyHash, messages: [], status, answered: false, durationMs: Date.now() - started });
  };
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    return reject(413, err.message, '');
  }
  const parsed = parseChatRequest(body, headerOf(req));
  if ('error' in parsed) return reject(400, parsed.error, sha256(body));
  const { model, messages, images } = parsed.request;
  // The reply leaves the socket only after its log entry is written: whoever has seen the reply finds the entry (a
  // reader in another process reads the log file right after its call returns).
  const socket = res.socket;
  socket?.cork();
  try {
    const outcome = await respond({ ...parsed.request, clientGone }, state, res, clientGone, seq);
    const seen = images.length ? { images } : {};
    log.add({
      ...base,
      bodyHash: sha256(body),
      model,
      messages,
      ...seen,
      ...outcome,
      durationMs: Date.now() - started,
    });
  } finally {
    if (socket && !socket.destroyed) socket.uncork();
  }
}

async function respond(
  request: ScriptedRequest,
  state: ScriptState,
  res: ServerResponse,
  clientGone: AbortSignal,
  seq: number,
): Promise<Outcome> {
  const strict = isStrictReasoningModel(state.script, request.model);
  const refusal = strict ? strictRefusalOf(request) : undefined;
  // Refused before any rule or queued fault is used up, as a provider validates a request before answering it.
  if (refusal) return { ...sent(res, 400, refusal), fault: 'strict_reasoning' };
  const queued = state.takeQueuedFault();
  const rule = queued && replacesReply(queued) ? undefined : state.takeRule(request);
  const fault = queued ?? rule?.fault;
  const delay = (state.script.latencyMs ?? 0) + (rule?.delayMs ?? 0) + (fault?.kind === 'slow' ? fault.delayMs : 0);
  const labels = { rule: rule?.name, fault: fault?.kind };
  if (delay > 0) await sleep(delay, undefined, { signal: clientGone }).catch(() => undefined); // the client hung up: stop waiting
  if (clientGone.aborted) return { status: 499, answered: false, ...labels };
  res.setHeader('x-request-id', `req_scripted_${seq}`);
  if (fault && replacesReply(fault)) return { ...sendFault(res, fault), ...labels };
  const source = rule?.reply ?? state.script.fallback;
  if (source === undefined) {
    sendJson(
      res,
      400,
      errorBody('scripted-llm: no rule matched the request and the script has no fallback', 'invalid_request_error'),
    );
    return { status: 400, answered: false, ...labels };
  }
  const reply: ScriptedReply = await replyOf(source, request);
  const finishReason = fault?.kind === 'truncated' ? 'length' : reply.finishReason;
  if (clientGone.aborted) return { status: 499, answered: false, ...labels };
  const reasoningTokens = reply.reasoningTokens ?? (strict ? strictReasoningTokens(state.script) : undefined);
  const body = completionBody(request, { ...reply, finishReason, reasoningTokens }, reply.text, {
    reasoningField: state.script.reasoningField,
  });
  sendJson(res, 200, body);
  return { status: 200, answered: true, ...labels };
}

function strictReasoningTokens(script: ScriptState['script']): number {
  return script.strictReasoning?.reasoningTokens ?? DEFAULT_REASONING_TOKENS;
}

function sendFault(res: ServerResponse, fault: Fault): Omit<Outcome, 'rule' | 'fault'> {
  switch (fault.kind) {
    case 'rate_limit':
      if (fault.retryAfterMs !== undefined) res.setHeader('retry-after-ms', String(fault.retryAfterMs));
      res.setHeader('retry-after', String(fault.retryAfterSeconds ?? 1));
      return sent(res, 429, errorBody('Rate limit reached (scripted)', 'rate_limit_error', 'rate_limit_exceeded'));
    case 'server_error':
      return sent(res, fault.status ?? 500, errorBody('The server had an error (scripted)', 'server_error'));
    case 'status':
      return sent(
        res,
        fault.status,
        errorBody(fault.message ?? `scripted error ${fault.status}`, 'invalid_request_error', fault.code ?? null),
      );
    case 'malformed':
      return sendMalformed(res, fault.variant);
    case 'reset':
      res.socket?.resetAndDestroy();
      return { status: 0, answered: false };
    default:
      throw new Error(`fault ${fault.kind} does not replace the reply`);
  }
}

function sendMalformed(
  res: ServerResponse,
  variant: 'invalid_json' | 'empty_choices' | 'null_content',
): Omit<Outcome, 'rule' | 'fault'> {
  if (variant === 'invalid_json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "chatcmpl-broken", "choices": [');
    return { status: 200, answered: false };
  }
  const request: ScriptedRequest = { model: 'scripted', messages: [], lastUser: '', tools: [], images: [] };
  const body = completionBody(request, { text: '' }, null);
  return sent(res, 200, variant === 'empty_choices' ? { ...body, choices: [] } : body);
}

function sent(res: ServerResponse, status: number, body: unknown): { status: number; answered: false } {
  sendJson(res, status, body);
  return { status, answered: false };
}

/** Aborts when the client disconnects before the reply was written (e.g. its process was killed). */
function watchClient(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

function headerOf(req: IncomingMessage): string | undefined {
  const value = req.headers[CALL_KEY_HEADER];
  return Array.isArray(value) ? value[0] : value;
}

function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
