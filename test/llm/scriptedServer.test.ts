import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  duplicatesAnswered,
  duplicatesAnsweredApartFromKills,
  readRequestLog,
  scriptFromJson,
  startScriptedServer,
  type RequestLogEntry,
} from '../../lib/scriptedLlm';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'scripted-llm-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function client(url: string) {
  return new OpenAI({ baseURL: url, apiKey: 'none', maxRetries: 0 });
}
async function ask(openai: OpenAI, content: string, callKey?: string, system?: string) {
  const messages = [
    ...(system ? [{ role: 'system' as const, content: system }] : []),
    { role: 'user' as const, content },
  ];
  const headers = callKey ? { 'X-Sheetbench-Call': callKey } : undefined;
  const r = await openai.chat.completions.create({ model: 'scripted', messages }, { headers });
  return r.choices[0].message.content;
}

describe('scripted server rules', () => {
  it('matches rules in order over the last user message, any message and the call key, honouring times', async () => {
    const server = await startScriptedServer({
      script: {
        rules: [
          { name: 'first-only', match: { lastUser: /^compute/ }, reply: 'first', times: 1 },
          { match: { callKey: /\/revise\// }, reply: 'revision' },
          { match: { anyMessage: /SYSTEM-MARK/ }, reply: (r) => `echo ${r.lastUser}` },
        ],
        fallback: 'fallback',
      },
    });
    const openai = client(server.url);
    expect(await ask(openai, 'compute x')).toBe('first');
    expect(await ask(openai, 'compute x', 'r/t/revise/1')).toBe('revision');
    expect(await ask(openai, 'hello', undefined, 'SYSTEM-MARK')).toBe('echo hello');
    expect(await ask(openai, 'nothing matches')).toBe('fallback');
    expect(server.log.map((e) => e.rule)).toEqual(['first-only', undefined, undefined, undefined]);
    await server.close();
  });

  it('answers 400 naming the problem when nothing matches and there is no fallback; GET /v1/models works', async () => {
    const server = await startScriptedServer();
    const openai = client(server.url);
    await expect(ask(openai, 'x')).rejects.toThrow(/no rule matched/);
    expect((await openai.models.list()).data.map((m) => m.id)).toEqual(['scripted']);
    await server.close();
  });

  it('applies global latency and queued faults in order, then returns to the script', async () => {
    const server = await startScriptedServer({ script: { rules: [], fallback: 'ok', latencyMs: 150 } });
    server.inject({ kind: 'rate_limit', retryAfterSeconds: 2 }, 2);
    const openai = client(server.url);
    const started = Date.now();
    const results = await Promise.allSettled([ask(openai, 'a'), ask(openai, 'b'), ask(openai, 'c')]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(2);
    expect(server.log.map((e) => e.status).sort()).toEqual([200, 429, 429]);
    await server.close();
  });

  it('counts the chat requests in flight: received, not yet answered and logged', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await startScriptedServer({
      script: { rules: [{ match: { lastUser: /^hold/ }, reply: () => gate.then(() => 'held') }], fallback: 'ok' },
    });
    const openai = client(server.url);
    expect(server.inFlight).toBe(0);
    const held = ask(openai, 'hold');
    await expect.poll(() => server.inFlight).toBe(1);
    expect(await ask(openai, 'quick')).toBe('ok');
    expect(server.inFlight).toBe(1);
    expect(server.log).toHaveLength(1);
    release();
    expect(await held).toBe('held');
    expect(server.inFlight).toBe(0);
    expect(server.log).toHaveLength(2);
    await server.close();
  });

  it('reports call keys answered twice, ignoring failed attempts', () => {
    const entry = (callKey: string, answered: boolean) => ({ callKey, answered }) as RequestLogEntry;
    const log = [entry('a', false), entry('a', true), entry('b', true), entry('b', true), entry('c', true)];
    expect(duplicatesAnswered(log)).toEqual(['b']);
  });

  it('forgives a reply paid twice only when the first one left the server at a kill', () => {
    const kill = Date.parse('2026-11-25T12:00:10.000Z');
    const sent = (callKey: string, atMs: number) =>
      ({ callKey, answered: true, time: new Date(kill + atMs - 50).toISOString(), durationMs: 50 }) as RequestLogEntry;
    const log = [
      sent('lost-at-kill', -120),
      sent('lost-at-kill', 4_000), // in flight when the worker died: paid again, forgiven
      sent('after-kill', 200),
      sent('after-kill', 4_000), // left 200 ms after the kill: the socket was not yet seen closed
      sent('long-before', -3_000),
      sent('long-before', 4_000), // the worker had it for 3 s: re-paying it is a bug
      sent('once', -100),
    ];
    expect(duplicatesAnsweredApartFromKills(log, [kill])).toEqual(['long-before']);
    expect(duplicatesAnsweredApartFromKills(log, [])).toEqual(['lost-at-kill', 'after-kill', 'long-before']);
    expect(duplicatesAnsweredApartFromKills(log, [kill], 150)).toEqual(['after-kill', 'long-before']);
  });

  it('rejects a bad script file with the path of each problem', () => {
    expect(() => scriptFromJson({ rules: [{ match: { lastUser: '(' }, reply: 'x' }] })).toThrow(
      /rules\.0\.match\.lastUser: not a valid regular expression/,
    );
    expect(() => scriptFromJson({ rules: [{ match: {} }] })).toThrow(/rules\.0: a rule needs a reply or a fault/);
    expect(() => scriptFromJson({ rules: [{ reply: 'x', fault: { kind: 'explode' } }] })).toThrow(/rules\.0\.fault/);
  });
});

describe('scripted-llm CLI in another process', () => {
  it('serves a JSON script, prints its URL, and writes its request log as JSONL', async () => {
    const scriptFile = path.join(dir, 'script.json');
    const logFile = path.join(dir, 'requests.jsonl');
    await writeFile(
      scriptFile,
      JSON.stringify({
        rules: [
          { match: { callKey: 'boom' }, fault: { kind: 'server_error' } },
          { match: { lastUser: 'task (\\d+)' }, reply: '```python\nprint(1)\n```' },
        ],
      }),
    );
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(__dirname, 'scriptedLlmCli.ts'),
        'scripted-llm',
        '--script',
        scriptFile,
        '--log',
        logFile,
      ],
      {
        cwd: path.resolve(__dirname, '../..'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const url = await firstLine(child.stdout);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const openai = client(url);
      expect(await ask(openai, 'solve task 12', 'run/12/solve/0')).toContain('print(1)');
      await expect(ask(openai, 'solve task 13', 'run/boom/solve/0')).rejects.toThrow();
      // The fault's entry was once read missing right after the 500 reached the client (2 of 6 runs, under load): the
      // process's log is read once both entries are there, and then checked whole.
      await expect.poll(async () => (await readRequestLog(logFile)).length, { timeout: 10_000 }).toBe(2);
      const log = await readRequestLog(logFile);
      expect(log.map((e) => [e.callKey, e.status, e.answered])).toEqual([
        ['run/12/solve/0', 200, true],
        ['run/boom/solve/0', 500, false],
      ]);
      expect(log[0].messages).toEqual([{ role: 'user', content: 'solve task 12' }]);
      expect(log[0].bodyHash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });

  it('exits with a usage error naming the problem for an invalid script', async () => {
    const scriptFile = path.join(dir, 'bad.json');
    await writeFile(scriptFile, JSON.stringify({ rules: [{ reply: 'x', times: -1 }] }));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'scriptedLlmCli.ts'), 'scripted-llm', '--script', scriptFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/invalid script .*bad\.json: rules\.0\.times/);
  });
});

function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    lines.once('line', (line) => resolve(line.trim()));
    stream.once('end', () => reject(new Error('CLI exited before printing its URL')));
  });
}

describe('a reply function sees its client hang up', () => {
  it('request.clientGone aborts when the client goes away, and the call is logged unanswered (499)', async () => {
    let sawAbort = false;
    let arrived = false;
    const server = await startScriptedServer({
      script: {
        rules: [],
        fallback: async (request) => {
          arrived = true;
          if (request.clientGone && !request.clientGone.aborted)
            await new Promise((resolve) => request.clientGone!.addEventListener('abort', resolve, { once: true }));
          sawAbort = request.clientGone?.aborted === true;
          return 'too late';
        },
      },
    });
    try {
      const abort = new AbortController();
      const call = client(server.url)
        .chat.completions.create(
          { model: 'scripted', messages: [{ role: 'user', content: 'hi' }] },
          { signal: abort.signal },
        )
        .catch((err: Error) => err);
      while (!arrived) await new Promise((resolve) => setTimeout(resolve, 10));
      abort.abort();
      expect(await call).toBeInstanceOf(Error);
      while (server.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sawAbort).toBe(true);
      expect(server.log.map((e) => [e.status, e.answered])).toEqual([[499, false]]);
    } finally {
      await server.close();
    }
  });
});
