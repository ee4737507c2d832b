import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { capabilitiesOf, classifyLlmError, OpenAiProvider, type ChatRequest } from '../../lib/llm';
import { scriptFromJson, startScriptedServer, type ScriptedRequest, type ScriptedServer } from '../../lib/scriptedLlm';

let server: ScriptedServer;
const seen: ScriptedRequest[] = [];
const ask = (model: string): ChatRequest => ({ model, messages: [{ role: 'user', content: 'Write code for task 7' }] });
const configured = (extra: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: 5_000, temperature: 0.2, maxTokens: 500, ...extra });

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.log.length = 0;
  seen.length = 0;
  server.setScript({
    rules: [],
    fallback: (r) => (seen.push(r), 'print(1)'),
    strictReasoning: { models: /^(gpt-5|o\d|my-deployment)/, reasoningTokens: 40 },
  });
});

describe('the strict scripted server answers as OpenAI answers its reasoning models', () => {
  async function post(body: Record<string, unknown>) {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
    return { status: res.status, body: await res.json() };
  }

  it("refuses max_tokens with OpenAI's unsupported_parameter body, word for word", async () => {
    expect(await post({ max_tokens: 10 })).toEqual({
      status: 400,
      body: {
        error: {
          message:
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      },
    });
  });

  it("refuses a temperature other than 1 with OpenAI's unsupported_value body, and accepts 1", async () => {
    expect(await post({ temperature: 0.2 })).toEqual({
      status: 400,
      body: {
        error: {
          message:
            "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        },
      },
    });
    expect((await post({ temperature: 1, max_completion_tokens: 10 })).status).toBe(200);
    expect(server.log.map((e) => e.fault)).toEqual(['strict_reasoning', undefined]);
  });

  it('reports reasoning tokens inside completion_tokens', async () => {
    const { body } = await post({});
    const usage = (body as { usage: Record<string, unknown> }).usage;
    expect(usage).toMatchObject({ completion_tokens: 2 + 40, completion_tokens_details: { reasoning_tokens: 40 } });
  });
});

describe('OpenAiProvider and reasoning models', () => {
  it('sends a GPT-5 model max_completion_tokens and no temperature, from the capability table: no refusal', async () => {
    const reply = await configured().complete(ask('gpt-5'));
    expect(reply.text).toBe('print(1)');
    expect(reply.adjustments).toBeUndefined();
    expect(seen[0]).toMatchObject({ maxTokensField: 'max_completion_tokens', maxTokens: 500 });
    expect(seen[0].temperature).toBeUndefined();
    expect(server.log.map((e) => e.status)).toEqual([200]);
    expect(reply.usage).toEqual({ inputTokens: 6, outputTokens: 2 + 40, reasoningTokens: 40 });
  });

  it('keeps max_tokens and temperature for models outside the table', async () => {
    await configured().complete(ask('gpt-4o-mini'));
    expect(seen[0]).toMatchObject({ maxTokensField: 'max_tokens', maxTokens: 500, temperature: 0.2 });
  });

  it('retries once per refused field for a model the table does not know, records it, and learns it', async () => {
    const provider = configured();
    const first = await provider.complete(ask('my-deployment'));
    expect(server.log.map((e) => [e.status, e.fault])).toEqual([
      [400, 'strict_reasoning'],
      [400, 'strict_reasoning'],
      [200, undefined],
    ]);
    expect(first.adjustments).toEqual([
      expect.stringMatching(
        /^max_tokens sent as max_completion_tokens after the provider refused it \(unsupported_parameter: /,
      ),
      expect.stringMatching(/^temperature left out after the provider refused it \(unsupported_value: /),
    ]);
    await provider.complete(ask('my-deployment'));
    expect(server.log).toHaveLength(4);
    expect(server.log[3].status).toBe(200);
  });

  it('follows llm.modelCapabilities over the table', async () => {
    const provider = configured({
      modelCapabilities: { 'my-deployment': { maxTokensField: 'max_completion_tokens', sampling: false } },
    });
    await provider.complete(ask('my-deployment'));
    expect(server.log.map((e) => e.status)).toEqual([200]);
    expect(capabilitiesOf('gpt-5', { 'gpt-5': { sampling: true } })).toEqual({
      maxTokensField: 'max_completion_tokens',
      sampling: true,
    });
    expect(capabilitiesOf('gpt-5-chat-latest').sampling).toBe(true);
    expect(capabilitiesOf('o3-mini').maxTokensField).toBe('max_completion_tokens');
  });

  it('does not retry other 400s', async () => {
    server.inject({ kind: 'status', status: 400, message: 'bad things', code: 'invalid_value' });
    const err = await configured()
      .complete(ask('gpt-4o'))
      .catch((e: unknown) => e);
    expect(classifyLlmError(err).class).toBe('bad_request');
    expect(server.log).toHaveLength(1);
  });

  it('sends llm.reasoningEffort as reasoning_effort', async () => {
    await configured({ reasoningEffort: 'low' }).complete(ask('gpt-5'));
    expect(seen[0].reasoningEffort).toBe('low');
  });
});

describe('cached prompt tokens and reasoning text', () => {
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    it(`reads the reasoning text from ${field} and the cached prompt tokens`, async () => {
      server.setScript({
        rules: [],
        fallback: () => ({ text: 'answer', reasoning: 'thinking it over', cachedTokens: 4 }),
        reasoningField: field,
      });
      const reply = await configured().complete(ask('deepseek-reasoner'));
      expect(reply).toMatchObject({ text: 'answer', reasoning: 'thinking it over' });
      expect(reply.usage).toEqual({ inputTokens: 6, outputTokens: 2, cachedInputTokens: 4 });
    });
  }

  it("never sends an earlier reply's reasoning back (the server refuses it as DeepSeek does)", async () => {
    const history: ChatRequest['messages'] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'one', reasoning: 'private thoughts' },
      { role: 'user', content: 'second' },
    ];
    const reply = await configured().complete({ model: 'deepseek-reasoner', messages: history });
    expect(reply.text).toBe('print(1)');
    const raw = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'assistant', content: 'x', reasoning_content: 'y' }] }),
    });
    expect(raw.status).toBe(400);
  });
});

describe('the JSON form of a script (sheetbench scripted-llm --script)', () => {
  it('reads strictReasoning and reasoningField, and names a bad regex', () => {
    const script = scriptFromJson({ strictReasoning: { models: '^gpt-5' }, reasoningField: 'reasoning' });
    expect(script.strictReasoning?.models.test('gpt-5.1')).toBe(true);
    expect(script.reasoningField).toBe('reasoning');
    expect(() => scriptFromJson({ strictReasoning: { models: '(' } })).toThrow(/strictReasoning\.models/);
  });
});
