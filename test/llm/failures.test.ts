import { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyLlmError, LlmError, OpenAiProvider, retryAfterMsFrom } from '../../lib/llm';
import { startScriptedServer, type Fault, type ScriptedServer } from '../../lib/scriptedLlm';

let server: ScriptedServer;
const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

beforeAll(async () => {
  server = await startScriptedServer({ script: { rules: [], fallback: 'ok' } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.log.length = 0;
});

async function failureFor(fault: Fault, opts: { timeoutMs?: number; maxRetryAfterMs?: number } = {}) {
  server.inject(fault);
  const provider = new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: opts.timeoutMs ?? 5_000 });
  const err = await provider.complete(request).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `fault ${fault.kind} should fail the call`).toBeDefined();
  return classifyLlmError(err, { maxRetryAfterMs: opts.maxRetryAfterMs ?? 60_000 });
}

describe('classifyLlmError over real HTTP faults', () => {
  it('429 → rate_limit, retryable, delay from Retry-After seconds', async () => {
    expect(await failureFor({ kind: 'rate_limit', retryAfterSeconds: 7 })).toEqual({
      class: 'rate_limit',
      retryable: true,
      retryAfterMs: 7000,
      status: 429,
    });
  });

  it('429 → retry-after-ms wins over Retry-After, and the cap applies', async () => {
    expect((await failureFor({ kind: 'rate_limit', retryAfterMs: 1500, retryAfterSeconds: 9 })).retryAfterMs).toBe(
      1500,
    );
    expect(
      (await failureFor({ kind: 'rate_limit', retryAfterSeconds: 3600 }, { maxRetryAfterMs: 60_000 })).retryAfterMs,
    ).toBe(60_000);
  });

  it('500 → provider_5xx, retryable', async () => {
    expect(await failureFor({ kind: 'server_error' })).toMatchObject({
      class: 'provider_5xx',
      retryable: true,
      status: 500,
    });
    expect(await failureFor({ kind: 'server_error', status: 503 })).toMatchObject({
      class: 'provider_5xx',
      retryable: true,
    });
  });

  it('400 → bad_request, not retryable', async () => {
    expect(await failureFor({ kind: 'status', status: 400, message: 'Invalid value for temperature' })).toEqual({
      class: 'bad_request',
      retryable: false,
      status: 400,
    });
  });

  it('401 and 403 → auth, not retryable', async () => {
    expect(await failureFor({ kind: 'status', status: 401, message: 'Incorrect API key provided' })).toMatchObject({
      class: 'auth',
      retryable: false,
    });
    expect(await failureFor({ kind: 'status', status: 403 })).toMatchObject({ class: 'auth', retryable: false });
  });

  it('context-length errors → context_too_long, not retryable (by message or by code)', async () => {
    const byMessage = {
      kind: 'status',
      status: 400,
      message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
    } as const;
    expect(await failureFor(byMessage)).toMatchObject({ class: 'context_too_long', retryable: false });
    expect(
      await failureFor({ kind: 'status', status: 400, message: 'too big', code: 'context_length_exceeded' }),
    ).toMatchObject({ class: 'context_too_long' });
  });

  it('a reply slower than the request timeout → timeout, retryable; the server logs the client as gone', async () => {
    const started = Date.now();
    expect(await failureFor({ kind: 'slow', delayMs: 60_000 }, { timeoutMs: 300 })).toMatchObject({
      class: 'timeout',
      retryable: true,
    });
    expect(Date.now() - started).toBeLessThan(30_000); // the 300 ms timeout ended it, not the 60 s reply
    await expect.poll(() => server.log.at(-1)?.status).toBe(499);
    expect(server.log.at(-1)?.answered).toBe(false);
  });

  it('an aborted call → timeout class (the activity was cancelled or timed out)', async () => {
    server.inject({ kind: 'slow', delayMs: 3_000 });
    const provider = new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: 5_000 });
    const err = await provider.complete(request, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect(classifyLlmError(err)).toMatchObject({ class: 'timeout', retryable: true });
  });

  it('a reset connection and a refused connection → connection, retryable', async () => {
    expect(await failureFor({ kind: 'reset' })).toMatchObject({ class: 'connection', retryable: true });
    const closed = await startScriptedServer();
    await closed.close();
    const err = await new OpenAiProvider({ baseUrl: closed.url, requestTimeoutMs: 2_000 })
      .complete(request)
      .catch((e: unknown) => e);
    expect(classifyLlmError(err)).toMatchObject({ class: 'connection', retryable: true });
  });
});

describe('classifyLlmError details', () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it('reads Retry-After as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMsFrom(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMsFrom(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });

  it('lets x-should-retry overrule the status', () => {
    const err = APIError.generate(400, { message: 'x' }, undefined, headers({ 'x-should-retry': 'true' }));
    expect(classifyLlmError(err)).toMatchObject({ class: 'bad_request', retryable: true });
  });

  it('keeps the class and retryability an LlmError carries', () => {
    expect(classifyLlmError(new LlmError('context_too_long', 'x'))).toEqual({
      class: 'context_too_long',
      retryable: false,
    });
    expect(classifyLlmError(new LlmError('bad_request', 'not installed', { retryable: false }))).toMatchObject({
      retryable: false,
    });
  });
});
