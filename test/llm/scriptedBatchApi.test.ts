import { afterEach, describe, expect, it, vi } from 'vitest';
import OpenAI, { toFile } from 'openai';
import { startScriptedServer, type ScriptedServer, type Script } from '../../lib/scriptedLlm';
import { BatchApiClient } from '../../lib/llm/batch/batchApiClient';
import { parseResultLines } from '../../lib/llm/batch/batchFiles';

/** The scripted server's files + batches endpoints, driven by the real `openai` client. */
let server: ScriptedServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

async function start(script: Script): Promise<OpenAI> {
  server = await startScriptedServer({ script });
  return new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
}

function jsonl(ids: string[], model = 'gpt-4o-mini'): Buffer {
  return Buffer.from(
    ids
      .map((id) =>
        JSON.stringify({
          custom_id: id,
          method: 'POST',
          url: '/v1/chat/completions',
          body: { model, messages: [{ role: 'user', content: `question ${id}` }] },
        }),
      )
      .join('\n'),
  );
}

async function submit(client: OpenAI, ids: string[], model?: string) {
  const file = await client.files.create({ file: await toFile(jsonl(ids, model), 'in.jsonl'), purpose: 'batch' });
  return client.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    metadata: { tag: 't1' },
  });
}

describe('scripted server: files + batches API', () => {
  it('answers every line after the scripted delay; output lines carry the completions; each line logged once', async () => {
    const client = await start({ rules: [], fallback: (r) => `answer to ${r.lastUser}`, batch: { delayMs: 300 } });
    // The server's clock (Date, in this process) stands still until the test moves it past the delay: a slow machine
    // cannot take the 300 ms between the submission and the checks that it is still in progress.
    vi.useFakeTimers({ toFake: ['Date'] });
    const batch = await submit(client, ['a/1', 'b/1', 'c/1']);
    expect(batch.status).toBe('in_progress');
    expect((await client.batches.retrieve(batch.id)).status).toBe('in_progress');
    expect(server!.log.filter((e) => e.batchId && e.answered)).toHaveLength(0);
    vi.setSystemTime(Date.now() + 299);
    expect((await client.batches.retrieve(batch.id)).status).toBe('in_progress');
    vi.setSystemTime(Date.now() + 1);
    const done = await client.batches.retrieve(batch.id);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(done.error_file_id).toBeNull();
    const text = await (await client.files.content(done.output_file_id!)).text();
    const results = parseResultLines(text, 'out');
    const a = results.get('a/1');
    expect(a?.ok && a.completion.choices[0].message.content).toBe('answer to question a/1');
    // Retrieved again: answered once only.
    await client.batches.retrieve(batch.id);
    const lines = server!.log.filter((e) => e.batchId === batch.id && e.answered).map((e) => e.callKey);
    expect(lines.sort()).toEqual(['a/1', 'b/1', 'c/1']);
    expect(server!.log.some((e) => e.route === 'POST /v1/batches')).toBe(true);
    // The metadata tag finds the batch in the list.
    const listed = [];
    for await (const b of client.batches.list()) listed.push(b);
    expect(listed.map((b) => [b.id, b.metadata?.tag])).toEqual([[batch.id, 't1']]);
  });

  it('a rule fault fails its line in the error file; dropped lines are in no file; expired lines end the batch expired', async () => {
    const client = await start({
      rules: [{ match: { callKey: /^bad\// }, fault: { kind: 'server_error' } }],
      fallback: 'ok',
      batch: { dropLines: /^gone\//, expireLines: /^late\// },
    });
    const batch = await submit(client, ['ok/1', 'bad/1', 'gone/1', 'late/1']);
    const done = await client.batches.retrieve(batch.id);
    expect(done.status).toBe('expired');
    expect(done.request_counts).toEqual({ total: 4, completed: 1, failed: 2 });
    const out = parseResultLines(await (await client.files.content(done.output_file_id!)).text(), 'out');
    const err = parseResultLines(await (await client.files.content(done.error_file_id!)).text(), 'err');
    expect([...out.keys()]).toEqual(['ok/1']);
    expect(err.get('bad/1')).toEqual({ ok: false, reason: 'HTTP 500: The server had an error (scripted)' });
    expect(err.get('late/1')).toMatchObject({ ok: false, reason: expect.stringMatching(/^batch_expired: /) });
    expect(out.has('gone/1') || err.has('gone/1')).toBe(false);
    expect(server!.log.filter((e) => e.answered).map((e) => e.callKey)).toEqual(['ok/1']);
  });

  it('rejects a batch for a model it does not serve, and a file with two models, at validation, naming the line', async () => {
    const client = await start({ rules: [], fallback: 'ok', batch: { rejectModels: /^no-batch/ } });
    const rejected = await submit(client, ['x/1'], 'no-batch-model');
    expect(rejected.status).toBe('failed');
    expect(rejected.errors?.data?.[0]).toMatchObject({ code: 'model_not_found', line: 1 });
    const bad = await client.files.create({
      file: await toFile(Buffer.from('{"custom_id": "x"}\nnot json'), 'bad.jsonl'),
      purpose: 'batch',
    });
    const invalid = await client.batches.create({
      input_file_id: bad.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    expect(invalid.status).toBe('failed');
    expect(invalid.errors?.data?.map((e) => e.line)).toEqual([1, 2]);
    expect(server!.log.filter((e) => e.answered)).toHaveLength(0);
  });

  it('cancel leaves every line unanswered; an unknown batch or file is a 404', async () => {
    const client = await start({ rules: [], fallback: 'ok', batch: { delayMs: 60_000 } });
    const batch = await submit(client, ['a/1']);
    expect((await client.batches.cancel(batch.id)).status).toBe('cancelled');
    await expect(client.batches.retrieve('batch_0000')).rejects.toMatchObject({ status: 404 });
    await expect(client.files.content('file-0000')).rejects.toMatchObject({ status: 404 });
    expect(server!.log.filter((e) => e.answered)).toHaveLength(0);
  });

  it('BatchApiClient finds an upload and a batch made before a crash instead of making them again', async () => {
    await start({ rules: [], fallback: 'ok', batch: { delayMs: 60_000 } });
    const api = new BatchApiClient({ baseUrl: server!.url, requestTimeoutMs: 10_000 });
    const content = jsonl(['a/1', 'b/1']);
    const first = await api.uploadOnce('run-1-b1.jsonl', content);
    const again = await api.uploadOnce('run-1-b1.jsonl', content);
    expect(again).toEqual({ fileId: first.fileId, reused: true });
    const batch = await api.createOnce('run-1/b1', first.fileId);
    expect(await api.createOnce('run-1/b1', first.fileId)).toEqual({ batchId: batch.batchId, reused: true });
    expect(server!.log.filter((e) => e.route === 'POST /v1/files')).toHaveLength(1);
    expect(server!.log.filter((e) => e.route === 'POST /v1/batches')).toHaveLength(1);
    expect(await api.state(batch.batchId)).toMatchObject({ status: 'in_progress', total: 2 });
  });
});
