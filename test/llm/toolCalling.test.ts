import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cachedComplete,
  OpenAiProvider,
  parseActions,
  parseToolCalls,
  ResponseCache,
  TextActionProvider,
  type ChatMessage,
  type ToolSpec,
} from '../../lib/llm';
import { readableResult, requiredCallNudge, unwrapToolCallSyntax } from '../../lib/llm/textActions';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';

const calculator: ToolSpec = {
  type: 'function',
  function: {
    name: 'calculator',
    description: 'Evaluates arithmetic',
    parameters: { type: 'object', properties: { expression: { type: 'string' } } },
  },
};

let server: ScriptedServer;
let provider: OpenAiProvider;

beforeAll(async () => {
  server = await startScriptedServer({
    script: {
      rules: [
        // Second request of the exchange: the tool's result is in the transcript, so answer in text.
        { match: { anyMessage: /^42$/ }, reply: (r) => `The answer is ${r.messages.at(-1)!.content}` },
        {
          match: { lastUser: /text protocol/ },
          reply: 'Let me compute.\n```action\n{"tool": "calculator", "args": {"expression": "6*7"}}\n```',
        },
        {
          match: { lastUser: /6 times 7/ },
          reply: (r) => ({
            text: '',
            toolCalls: r.tools.includes('calculator')
              ? [{ id: 'c1', name: 'calculator', arguments: { expression: '6*7' } }]
              : [],
          }),
        },
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
    expect(first).toMatchObject({
      text: '',
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
    });
    const followUp: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'c1', content: '42' },
    ];
    const second = await provider.complete({ model: 'm', messages: followUp, tools: [calculator] });
    expect(second).toMatchObject({ text: 'The answer is 42', finishReason: 'stop' });
    expect(second.toolCalls).toBeUndefined();
    // The server saw the assistant's tool call and the tool message's call id.
    const seen = server.log.at(-1)!.messages;
    expect(seen.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('caches replies with tool calls, keyed by the tools offered', async () => {
    const cache = new ResponseCache(mkdtempSync(path.join(os.tmpdir(), 'sb-cache-')));
    const request = {
      model: 'm',
      messages: [{ role: 'user' as const, content: 'what is 6 times 7?' }],
      tools: [calculator],
    };
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
    const reply = await text.complete({
      model: 'm',
      messages: [{ role: 'user', content: 'use the text protocol' }],
      tools: [calculator],
    });
    expect(reply).toMatchObject({
      text: 'Let me compute.',
      finishReason: 'tool_calls',
      toolCalls: [{ name: 'calculator', arguments: '{"expression":"6*7"}' }],
    });
    const sent = server.log.at(-1)!.messages;
    expect(sent[0]).toMatchObject({ role: 'system' });
    expect(sent[0].content).toContain('calculator');
    expect(server.log.at(-1)!.messages.every((m) => m.role !== 'tool')).toBe(true);
  });

  it('keeps an unparseable action as a call with its raw text, so the tool layer can report invalid arguments', () => {
    expect(parseActions('```action\n{not json\n```')).toEqual([
      { id: 'action_0', name: 'invalid_action', arguments: '{not json' },
    ]);
  });
});

describe('the forms small instruction-tuned models write tool calls in (text protocol)', () => {
  const python: ToolSpec = {
    type: 'function',
    function: {
      name: 'python_execute',
      description: 'Runs Python',
      parameters: {
        type: 'object',
        properties: { code: { type: 'string' }, timeout: { type: 'number' } },
        required: ['code'],
      },
    },
  };
  const offered = [calculator, python];

  it("reads Qwen's own JSON form: bare, in a json fence, in <tool_call> tags", () => {
    const bare = parseToolCalls('{"name": "calculator", "arguments": {"expression": "6*7"}}', offered);
    expect(bare).toEqual({
      calls: [{ id: 'action_0', name: 'calculator', arguments: '{"expression":"6*7"}' }],
      rest: '',
    });
    const fenced = parseToolCalls(
      'I will compute.\n```json\n{"name": "calculator", "arguments": "{\\"expression\\": \\"1+1\\"}"}\n```',
      offered,
    );
    expect(fenced).toEqual({
      calls: [{ id: 'action_0', name: 'calculator', arguments: '{"expression": "1+1"}' }],
      rest: 'I will compute.',
    });
    const tagged = parseToolCalls(
      '<tool_call>\n{"name": "calculator", "arguments": {"expression": "2"}}\n</tool_call>',
      offered,
    );
    expect(tagged.calls).toEqual([{ id: 'action_0', name: 'calculator', arguments: '{"expression":"2"}' }]);
  });

  it('reads a fence named after the tool as its first required text argument', () => {
    const r = parseToolCalls('Running it:\n```python_execute\nprint(1)\n```', offered);
    expect(r).toEqual({
      calls: [{ id: 'action_0', name: 'python_execute', arguments: '{"code":"print(1)"}' }],
      rest: 'Running it:',
    });
  });

  it('runs a ```python block with python_execute, unless that code already ran (an answer repeating its code ends the loop)', () => {
    const text = 'Here is the code:\n```python\nprint(df.sum())\n```';
    expect(parseToolCalls(text, offered).calls).toEqual([
      { id: 'action_0', name: 'python_execute', arguments: '{"code":"print(df.sum())"}' },
    ]);
    expect(parseToolCalls(text, offered, new Set(['print(df.sum())'])).calls).toEqual([]);
    expect(parseToolCalls(text, [calculator]).calls).toEqual([]);
  });

  it("reads code in a Python triple-quoted string inside the call's JSON (the 0.5B's form), dedented", () => {
    const text =
      '```json\n{\n  "tool": "python_execute",\n  "args": {\n    "code": """\n    import pandas as pd\n    df = pd.read_csv("sales.csv")\n    if True:\n        print(df["amount"].sum())\n    """\n  }\n}\n```';
    const r = parseToolCalls(text, offered);
    expect(r.calls).toEqual([
      {
        id: 'action_0',
        name: 'python_execute',
        arguments: JSON.stringify({
          code: 'import pandas as pd\ndf = pd.read_csv("sales.csv")\nif True:\n    print(df["amount"].sum())',
        }),
      },
    ]);
    // Data in triple quotes naming no offered tool stays text.
    expect(
      parseToolCalls('```json\n{"name": "shell", "arguments": {"cmd": """rm -rf /"""}}\n```', offered).calls,
    ).toEqual([]);
  });

  it('a ```python block that only calls python_execute(code="…") (the 0.5B on a04) runs the code it passes', () => {
    const r = parseToolCalls(
      "```python\npython_execute(code=\"import pandas as pd\\nprint(pd.read_csv('w.csv')['t'].max())\")\n```",
      offered,
    );
    expect(r.calls).toEqual([
      {
        id: 'action_0',
        name: 'python_execute',
        arguments: JSON.stringify({ code: "import pandas as pd\nprint(pd.read_csv('w.csv')['t'].max())" }),
      },
    ]);
    expect(unwrapToolCallSyntax("python_execute('''\n    print(1)\n    ''')")).toBe('print(1)');
    // Code that merely uses the name, or does more than the one call, is run as written.
    const more = 'x = 1\npython_execute(code="print(x)")';
    expect(unwrapToolCallSyntax(more)).toBe(more);
  });

  it('never takes JSON data or a tool that was not offered for a call', () => {
    expect(parseToolCalls('{"name": "Alice", "arguments": 3}', offered).calls).toEqual([]);
    expect(parseToolCalls('```json\n{"region": "North", "total": 150}\n```', offered).calls).toEqual([]);
    expect(parseToolCalls('{"name": "web_fetch", "arguments": {"url": "http://x"}}', offered).calls).toEqual([]);
  });

  it('shows earlier calls and readable results to a step offered no tools (the answer after them)', async () => {
    const seen: ChatMessage[][] = [];
    const inner = {
      name: 'spy',
      complete: async (r: { messages: ChatMessage[] }) => (
        seen.push(r.messages),
        {
          text: 'ok',
          finishReason: 'stop' as const,
          usage: { inputTokens: 0, outputTokens: 0 },
          model: 'm',
          cached: false,
        }
      ),
    };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'sum?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'action_0', name: 'python_execute', arguments: '{"code":"print(3)"}' }],
      },
      {
        role: 'tool',
        toolCallId: 'action_0',
        content: JSON.stringify({ success: true, stdout: 'a\nb\n', stderr: '', timedOut: false }),
      },
    ];
    await new TextActionProvider(inner).complete({ model: 'm', messages });
    expect(seen[0].map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(seen[0][1].content).toContain('```action\n{"tool": "python_execute", "args": {"code":"print(3)"}}');
    expect(seen[0][2].content).toBe('Result of python_execute (action_0):\nsuccess: true\nstdout:\na\nb');
    expect(readableResult('plain text')).toBe('plain text');
  });
});

describe('a required tool call in the text protocol', () => {
  const python: ToolSpec = {
    type: 'function',
    function: {
      name: 'python_execute',
      description: 'Runs Python',
      parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    },
  };
  /** A model replying with `replies` in turn, recording what it was sent. */
  function scripted(replies: string[]) {
    const seen: ChatMessage[][] = [];
    const inner = {
      name: 'scripted',
      complete: (r: { messages: ChatMessage[] }) => {
        seen.push(r.messages);
        return Promise.resolve({
          text: replies[seen.length - 1] ?? '',
          finishReason: 'stop' as const,
          usage: { inputTokens: 10, outputTokens: 5 },
          model: 'm',
          cached: false,
        });
      },
    };
    return { provider: new TextActionProvider(inner), seen };
  }
  const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'total amount?' }], tools: [python] };

  it('a reply without a call is asked once more; the code it then writes runs as the call, the usage of both counted', async () => {
    const { provider: p, seen } = scripted([
      'You can compute it with pandas: read the file and sum the amount column.',
      '```python\nimport pandas as pd\nprint(pd.read_csv("sales.csv")["amount"].sum())\n```',
    ]);
    const reply = await p.complete({ ...ask, toolChoice: 'required' });
    expect(seen).toHaveLength(2);
    expect(seen[1].at(-1)).toEqual({ role: 'user', content: requiredCallNudge([python]) });
    expect(seen[1].at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining('sum the amount') });
    expect(reply).toMatchObject({
      finishReason: 'tool_calls',
      toolCalls: [{ name: 'python_execute', arguments: expect.stringContaining('sum()') }],
      usage: { inputTokens: 20, outputTokens: 10 },
    });
  });

  it('a model that still writes no code gives its reply without a call (the pattern goes on as before); auto asks once', async () => {
    const stubborn = scripted(['The total is 1988.', 'It is 1988.']);
    const reply = await stubborn.provider.complete({ ...ask, toolChoice: 'required' });
    expect(stubborn.seen).toHaveLength(2);
    expect(reply.toolCalls).toBeUndefined();
    expect(reply.text).toBe('It is 1988.');
    const free = scripted(['The total is 1988.']);
    expect((await free.provider.complete({ ...ask, toolChoice: 'auto' })).toolCalls).toBeUndefined();
    expect(free.seen).toHaveLength(1);
  });
});
