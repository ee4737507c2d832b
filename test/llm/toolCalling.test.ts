import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedComplete, OpenAiProvider, parseActions, ResponseCache, TextActionProvider, type ChatMessage, type ToolSpec } from '../../lib/llm';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';

const calculator: ToolSpec = {
  type: 'function',
  function: { name: 'calculator', description: 'Evaluates arithmetic', parameters: { type: 'object', properties: { expression: { type: 'string' } } } },
};

let server: ScriptedServer;
let provider: OpenAiProvider;

beforeAll(async () => {
  server = await startScriptedServer({
    script: {
      rules: [
        // Second request of the exchange: the tool's result is in the transcript, so answer in text.
        { match: { anyMessage: /^42$/ }, reply: (r) => `The answer is ${r.messages.at(-1)!.content}` },
        { match: { lastUser: /text protocol/ }, reply: 'Let me compute.\n```action\n{"tool": "calculator", "args": {"expression": "6*7"}}\n```' },
        { match: { lastUser: /6 times 7/ }, reply: (r) => ({ text: '', toolCalls: r.tools.includes('calculator') ? [{ id: 'c1', name: 'calculator', arguments: { expression: '6*7' } }] : [] }) },
      ],
    },
  });
  provider = new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: 5_000 });
});
afterAll(() => server.close());

describe('native tool calling through the openai client and the scripted server', () => {
  it('sends tools, receives tool calls, and sends the tool result back as a tool message', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'what is 6 times 7?' }];
    const first = await provider.complete({ model: 'm', messages, tools: [calculator], toolChoice: 'auto' });
    expect(first).toMatchObject({ text: '', finishReason: 'tool_calls', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }] });
    const followUp: ChatMessage[] = [...messages, { role: 'assistant', content: '', toolCalls: first.toolCalls }, { role: 'tool', toolCallId: 'c1', content: '42' }];
    const second = await provider.complete({ model: 'm', messages: followUp, tools: [calculator] });
    expect(second).toMatchObject({ text: 'The answer is 42', finishReason: 'stop' });
    expect(second.toolCalls).toBeUndefined();
    // The server saw the assistant's tool call and the tool message's call id.
    const seen = server.log.at(-1)!.messages;
    expect(seen.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('caches replies with tool calls, keyed by the tools offered', async () => {
    const cache = new ResponseCache(mkdtempSync(path.join(os.tmpdir(), 'sb-cache-')));
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'what is 6 times 7?' }], tools: [calculator] };
    const before = server.log.length;
    const a = await cachedComplete(provider, cache, request, { callKey: 'k1' });
    const b = await cachedComplete(provider, cache, request, { callKey: 'k1' });
    expect(b).toMatchObject({ cached: true, toolCalls: a.toolCalls, finishReason: 'tool_calls' });
    const withoutTools = await cachedComplete(provider, cache, { ...request, tools: undefined }, { callKey: 'k1' });
    expect(withoutTools.cached).toBe(false);
    expect(server.log.length - before).toBe(2);
  });
});

describe('plain-text action protocol', () => {
  it('describes the tools in the system prompt and parses action blocks into tool calls', async () => {
    const text = new TextActionProvider(provider);
    const reply = await text.complete({ model: 'm', messages: [{ role: 'user', content: 'use the text protocol' }], tools: [calculator] });
    expect(reply).toMatchObject({ text: 'Let me compute.', finishReason: 'tool_calls', toolCalls: [{ name: 'calculator', arguments: '{"expression":"6*7"}' }] });
    const sent = server.log.at(-1)!.messages;
    expect(sent[0]).toMatchObject({ role: 'system' });
    expect(sent[0].content).toContain('calculator');
    expect(server.log.at(-1)!.messages.every((m) => m.role !== 'tool')).toBe(true);
  });

  it('keeps an unparseable action as a call with its raw text, so the tool layer can report invalid arguments', () => {
    expect(parseActions('```action\n{not json\n```')).toEqual([{ id: 'action_0', name: 'invalid_action', arguments: '{not json' }]);
  });
});
