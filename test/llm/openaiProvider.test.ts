import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyLlmError, createProvider, LlmError, OpenAiProvider, usesLocalModel } from '../../lib/llm';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';

let server: ScriptedServer;
let provider: OpenAiProvider;
const request = { model: 'scripted-model', messages: [{ role: 'user' as const, content: 'Write code for task 42' }] };

beforeAll(async () => {
  server = await startScriptedServer();
  provider = new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: 5_000 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.log.length = 0;
  server.setScript({
    rules: [{ match: { lastUser: /task 42/ }, reply: 'print("hello")' }],
    fallback: 'fallback reply',
  });
});

describe('OpenAiProvider against the scripted server', () => {
  it('returns text, finish reason, usage, request id and sends the call key header', async () => {
    const reply = await provider.complete(request, { callKey: 'run1/t42/solve/0' });
    expect(reply).toMatchObject({
      text: 'print("hello")',
      finishReason: 'stop',
      model: 'scripted-model',
      cached: false,
    });
    // usage = ceil(chars / 4): 'Write code for task 42' is 22 chars → 6; 'print("hello")' is 14 chars → 4.
    expect(reply.usage).toEqual({ inputTokens: 6, outputTokens: 4 });
    expect(reply.requestId).toMatch(/^req_scripted_\d+$/);
    expect(server.log).toHaveLength(1);
    expect(server.log[0]).toMatchObject({ callKey: 'run1/t42/solve/0', status: 200, answered: true });
  });

  it('passes temperature and max_tokens from the request, falling back to the config', async () => {
    const seen: Array<number | undefined> = [];
    server.setScript({ rules: [], fallback: (r) => (seen.push(r.temperature, r.maxTokens), 'ok') });
    const configured = new OpenAiProvider({
      baseUrl: server.url,
      requestTimeoutMs: 5_000,
      temperature: 0.3,
      maxTokens: 77,
    });
    await configured.complete(request);
    await configured.complete({ ...request, temperature: 0, maxTokens: 5 });
    expect(seen).toEqual([0.3, 77, 0, 5]);
  });

  it('maps a truncated reply to finishReason length', async () => {
    server.inject({ kind: 'truncated' });
    const reply = await provider.complete(request);
    expect(reply.finishReason).toBe('length');
    expect(reply.text).toBe('print("hello")');
  });

  for (const variant of ['empty_choices', 'null_content'] as const) {
    it(`rejects a reply with ${variant} as a typed malformed_reply`, async () => {
      server.inject({ kind: 'malformed', variant });
      const err = await provider.complete(request).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect(classifyLlmError(err)).toMatchObject({ class: 'malformed_reply', retryable: true });
    });
  }

  it('classifies an invalid JSON body as malformed_reply', async () => {
    server.inject({ kind: 'malformed', variant: 'invalid_json' });
    const err = await provider.complete(request).catch((e: unknown) => e);
    expect(classifyLlmError(err)).toMatchObject({ class: 'malformed_reply', retryable: true });
    expect(server.log.at(-1)).toMatchObject({ status: 200, answered: false });
  });
});

describe('createProvider', () => {
  it('picks the local model when asked or when nothing points elsewhere, else the OpenAI-compatible endpoint', () => {
    expect(usesLocalModel({ provider: 'local', baseUrl: 'http://x/v1' })).toBe(true);
    expect(usesLocalModel({ provider: 'openai' })).toBe(true);
    expect(usesLocalModel({ provider: 'openai', baseUrl: 'http://x/v1' })).toBe(false);
    expect(usesLocalModel({ provider: 'openai', apiKey: 'sk-1' })).toBe(false);
    expect(createProvider({ requestTimeoutMs: 1000 }).name).toBe('local');
    expect(createProvider({ requestTimeoutMs: 1000, baseUrl: server.url }).name).toBe('openai');
  });
});
