import OpenAI, { toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';

/** Local OpenAI-compatible servers need no key, but the client refuses to start without one. */
const PLACEHOLDER_API_KEY = 'sk-sheetbench-no-key';

/** The metadata key that tags a batch with the sheetbench batch it carries, so a batch created before a crash is found. */
export const BATCH_TAG = 'sheetbench_batch';

export interface BatchEndpoint {
  baseUrl?: string;
  apiKey?: string;
  requestTimeoutMs: number;
}

/** What a poll tells of a batch. */
export interface BatchState {
  id: string;
  status: Batch['status'];
  total: number;
  completed: number;
  failed: number;
  outputFileId?: string;
  errorFileId?: string;
  /** The provider's validation errors of a `failed` batch, one line each. */
  errors: string[];
}

/**
 * OpenAI's files + batches API (any compatible endpoint), through the `openai` client: each step can be found again
 * after a crash. An input file is found by its file name and a batch by its metadata tag before anything is uploaded
 * or created, so a step that happened before a worker died is never done (or paid for) twice.
 */
export class BatchApiClient {
  private readonly client: OpenAI;

  constructor(endpoint: BatchEndpoint) {
    this.client = new OpenAI({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey || PLACEHOLDER_API_KEY,
      maxRetries: 0,
      timeout: endpoint.requestTimeoutMs,
    });
  }

  /** The input file named `filename` uploaded earlier, else uploaded now. */
  async uploadOnce(filename: string, content: Buffer): Promise<{ fileId: string; reused: boolean }> {
    for await (const file of this.client.files.list({ purpose: 'batch' })) {
      if (file.filename === filename && file.bytes === content.length) return { fileId: file.id, reused: true };
    }
    const file = await this.client.files.create({ file: await toFile(content, filename), purpose: 'batch' });
    return { fileId: file.id, reused: false };
  }

  /** The batch tagged `tag` created earlier, else a new one over `fileId`. */
  async createOnce(tag: string, fileId: string): Promise<{ batchId: string; reused: boolean }> {
    for await (const batch of this.client.batches.list({ limit: 100 })) {
      if (batch.metadata?.[BATCH_TAG] === tag) return { batchId: batch.id, reused: true };
    }
    const batch = await this.client.batches.create({
      input_file_id: fileId,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { [BATCH_TAG]: tag },
    });
    return { batchId: batch.id, reused: false };
  }

  async state(batchId: string): Promise<BatchState> {
    const b = await this.client.batches.retrieve(batchId);
    return {
      id: b.id,
      status: b.status,
      total: b.request_counts?.total ?? 0,
      completed: b.request_counts?.completed ?? 0,
      failed: b.request_counts?.failed ?? 0,
      ...(b.output_file_id ? { outputFileId: b.output_file_id } : {}),
      ...(b.error_file_id ? { errorFileId: b.error_file_id } : {}),
      errors: (b.errors?.data ?? []).map(
        (e) => `${e.line ? `line ${e.line}: ` : ''}${e.code ?? 'error'}: ${e.message ?? ''}`,
      ),
    };
  }

  async content(fileId: string): Promise<string> {
    return (await this.client.files.content(fileId)).text();
  }

  async cancel(batchId: string): Promise<void> {
    await this.client.batches.cancel(batchId);
  }
}

/** A batch that will change no more. */
export function isFinished(status: Batch['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'expired' || status === 'cancelled';
}
