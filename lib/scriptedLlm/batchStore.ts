import { createHash, randomBytes } from 'node:crypto';
import { answerLine } from './batchLine';
import { chatRequestOf } from './requestBody';
import type { RequestLog } from './requestLog';
import type { BatchScript } from './script';
import type { ScriptState } from './scriptState';

/** An uploaded or generated file, as OpenAI's `file` object plus its bytes. */
export interface StoredFile {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
  expires_at: null;
  status_details: null;
  content: Buffer;
}

type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelled';

/** OpenAI's `batch` object (the fields the API documents). */
export interface BatchObject {
  id: string;
  object: 'batch';
  endpoint: string;
  errors: {
    object: 'list';
    data: { code: string; message: string; param: string | null; line: number | null }[];
  } | null;
  input_file_id: string;
  completion_window: string;
  status: BatchStatus;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
}

type BatchError = NonNullable<BatchObject['errors']>['data'][number];

interface InputLine {
  custom_id: string;
  method: string;
  url: string;
  body: unknown;
}

interface StoredBatch {
  object: BatchObject;
  lines: InputLine[];
  readyAt: number;
  settling?: Promise<void>;
}

const ENDPOINT = '/v1/chat/completions';
const DAY_S = 24 * 3600;

/** The files and batches of one scripted server; a batch's lines are answered when it is read after its delay. */
export class BatchStore {
  readonly files = new Map<string, StoredFile>();
  readonly batches = new Map<string, StoredBatch>();

  constructor(
    private readonly state: ScriptState,
    private readonly log: RequestLog,
  ) {}

  /** How long a batch creation's reply is held (see BatchScript.createReplyDelayMs). */
  get createReplyDelayMs(): number {
    return this.script.createReplyDelayMs ?? 0;
  }

  private get script(): BatchScript {
    return this.state.script.batch ?? {};
  }

  addFile(filename: string, purpose: string, content: Buffer): StoredFile {
    const file: StoredFile = {
      id: `file-${randomBytes(12).toString('hex')}`,
      object: 'file',
      bytes: content.length,
      created_at: nowS(),
      filename,
      purpose,
      status: 'processed',
      expires_at: null,
      status_details: null,
      content,
    };
    this.files.set(file.id, file);
    return file;
  }

  /** A new batch, validated at once: a bad input file or a rejected model makes it `failed` with its errors. */
  create(inputFileId: string, endpoint: string, window: string, metadata: Record<string, string> | null): BatchObject {
    const input = this.files.get(inputFileId);
    const object = newBatch(inputFileId, endpoint, window, metadata);
    const stored: StoredBatch = { object, lines: [], readyAt: Date.now() + (this.script.delayMs ?? 0) };
    this.batches.set(object.id, stored);
    const parsed = input
      ? parseLines(input.content)
      : { lines: [], errors: [lineError('not_found', 'input file', null)] };
    const errors = [...parsed.errors, ...this.rejections(parsed.lines)];
    if (errors.length) {
      Object.assign(object, { status: 'failed', failed_at: nowS(), errors: { object: 'list', data: errors } });
      return object;
    }
    stored.lines = parsed.lines;
    Object.assign(object, { status: 'in_progress', in_progress_at: nowS() });
    object.request_counts.total = parsed.lines.length;
    return object;
  }

  /** The batch as of now: one whose delay has passed is answered first (once). */
  async retrieve(id: string): Promise<BatchObject | undefined> {
    const stored = this.batches.get(id);
    if (!stored) return undefined;
    if (stored.object.status === 'in_progress' && Date.now() >= stored.readyAt) {
      stored.settling ??= this.settle(stored);
      await stored.settling;
    }
    return stored.object;
  }

  async list(): Promise<BatchObject[]> {
    const ids = [...this.batches.keys()].reverse(); // newest first, as OpenAI lists them
    return (await Promise.all(ids.map((id) => this.retrieve(id)))).filter((b): b is BatchObject => b !== undefined);
  }

  /** Cancelling a batch still in progress: nothing of it is answered. */
  async cancel(id: string): Promise<BatchObject | undefined> {
    const object = await this.retrieve(id);
    if (object?.status === 'in_progress')
      Object.assign(object, { status: 'cancelled', cancelling_at: nowS(), cancelled_at: nowS() });
    return object;
  }

  private rejections(lines: InputLine[]): BatchError[] {
    const models = new Set(lines.map((l) => modelOf(l.body)));
    const rejected = this.script.rejectModels;
    const errors: BatchError[] = [];
    if (models.size > 1)
      errors.push(lineError('invalid_request', `a batch takes one model; this one has ${[...models].join(', ')}`, 1));
    const index = rejected ? lines.findIndex((l) => rejected.test(modelOf(l.body))) : -1;
    if (index >= 0)
      errors.push(
        lineError(
          'model_not_found',
          `The model '${modelOf(lines[index].body)}' does not exist or is not supported with the Batch API.`,
          index + 1,
        ),
      );
    return errors;
  }

  private async settle(stored: StoredBatch): Promise<void> {
    const { object } = stored;
    const outputs: string[] = [];
    const errors: string[] = [];
    let expired = false;
    for (const line of stored.lines) {
      if (this.script.dropLines?.test(line.custom_id)) continue;
      if (this.script.expireLines?.test(line.custom_id)) {
        expired = true;
        errors.push(resultLine(line, null, { code: 'batch_expired', message: EXPIRED_MESSAGE }));
        continue;
      }
      const answer = await this.answer(line, object.id);
      (answer.status === 200 ? outputs : errors).push(resultLine(line, answer));
    }
    object.request_counts.completed = outputs.length;
    object.request_counts.failed = errors.length;
    if (outputs.length) object.output_file_id = this.addJsonl(`${object.id}_output.jsonl`, outputs).id;
    if (errors.length) object.error_file_id = this.addJsonl(`${object.id}_error.jsonl`, errors).id;
    const at = nowS();
    Object.assign(
      object,
      expired ? { status: 'expired', expired_at: at } : { status: 'completed', finalizing_at: at, completed_at: at },
    );
  }

  private async answer(line: InputLine, batchId: string): Promise<{ status: number; body: unknown; id: string }> {
    const started = Date.now();
    const seq = ++this.state.seq;
    const body = JSON.stringify(line.body ?? null);
    const bodyHash = createHash('sha256').update(body).digest('hex');
    const entry = { seq, time: new Date(started).toISOString(), callKey: line.custom_id, bodyHash, batchId };
    const parsed = chatRequestOf(line.body, line.custom_id);
    if ('error' in parsed) {
      this.log.add({ ...entry, messages: [], status: 400, answered: false, durationMs: Date.now() - started });
      return { status: 400, body: { error: { message: parsed.error, type: 'invalid_request_error' } }, id: reqId(seq) };
    }
    const answer = await answerLine(parsed.request, this.state);
    const { model, messages } = parsed.request;
    this.log.add({
      ...entry,
      model,
      messages,
      status: answer.status,
      answered: answer.answered,
      rule: answer.rule,
      fault: answer.fault,
      durationMs: Date.now() - started,
    });
    return { status: answer.status, body: answer.body, id: reqId(seq) };
  }

  private addJsonl(filename: string, lines: string[]): StoredFile {
    return this.addFile(filename, 'batch_output', Buffer.from(lines.map((l) => `${l}\n`).join('')));
  }
}

const EXPIRED_MESSAGE = 'This request could not be executed before the completion window expired.';

function newBatch(
  inputFileId: string,
  endpoint: string,
  window: string,
  metadata: Record<string, string> | null,
): BatchObject {
  const created = nowS();
  return {
    id: `batch_${randomBytes(12).toString('hex')}`,
    object: 'batch',
    endpoint,
    errors: null,
    input_file_id: inputFileId,
    completion_window: window,
    status: 'validating',
    output_file_id: null,
    error_file_id: null,
    created_at: created,
    in_progress_at: null,
    expires_at: created + DAY_S,
    finalizing_at: null,
    completed_at: null,
    failed_at: null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    request_counts: { total: 0, completed: 0, failed: 0 },
    metadata,
  };
}

/** The input file's lines, or the errors OpenAI's validation reports (line numbers from 1). */
function parseLines(content: Buffer): { lines: InputLine[]; errors: BatchError[] } {
  const lines: InputLine[] = [];
  const errors: BatchError[] = [];
  const seen = new Set<string>();
  content
    .toString('utf8')
    .split('\n')
    .forEach((text, i) => {
      if (!text.trim()) return;
      const line = lineOf(text);
      if (!line) return errors.push(lineError('invalid_json_line', 'This line is not parseable as valid JSON.', i + 1));
      if (line.url !== ENDPOINT || line.method !== 'POST')
        return errors.push(
          lineError('invalid_url', `The URL provided for this request does not match ${ENDPOINT}.`, i + 1),
        );
      if (seen.has(line.custom_id))
        return errors.push(lineError('duplicate_custom_id', 'The custom_id for this request is a duplicate.', i + 1));
      seen.add(line.custom_id);
      lines.push(line);
    });
  if (!lines.length && !errors.length) errors.push(lineError('empty_file', 'The input file has no requests.', null));
  return { lines, errors };
}

function lineOf(text: string): InputLine | undefined {
  try {
    const json = JSON.parse(text) as Partial<InputLine>;
    if (typeof json.custom_id !== 'string' || typeof json.url !== 'string' || typeof json.method !== 'string')
      return undefined;
    return { custom_id: json.custom_id, method: json.method, url: json.url, body: json.body };
  } catch {
    return undefined;
  }
}

function lineError(code: string, message: string, line: number | null) {
  return { code, message, param: null, line };
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : '';
}

function resultLine(
  line: InputLine,
  answer: { status: number; body: unknown; id: string } | null,
  error: { code: string; message: string } | null = null,
): string {
  return JSON.stringify({
    id: `batch_req_${randomBytes(8).toString('hex')}`,
    custom_id: line.custom_id,
    response: answer ? { status_code: answer.status, request_id: answer.id, body: answer.body } : null,
    error,
  });
}

function reqId(seq: number): string {
  return `req_scripted_${seq}`;
}

function nowS(): number {
  return Math.floor(Date.now() / 1000);
}
