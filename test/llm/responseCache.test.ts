import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedComplete, cacheKeyOf, OpenAiProvider, ResponseCache } from '../../lib/llm';
import { duplicatesAnswered, startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';

let server: ScriptedServer;
let provider: OpenAiProvider;
let dir: string;
let cache: ResponseCache;
const request = {
  model: 'm',
  temperature: 0,
  maxTokens: 100,
  messages: [{ role: 'user' as const, content: 'solve task 7' }],
};

beforeAll(async () => {
  let n = 0;
  server = await startScriptedServer({ script: { rules: [], fallback: () => `answer ${++n}` } });
  provider = new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: 5_000 });
});
afterAll(() => server.close());
beforeEach(async () => {
  server.log.length = 0;
  dir = await mkdtemp(path.join(tmpdir(), 'llm-cache-'));
  cache = new ResponseCache(dir);
  return () => rm(dir, { recursive: true, force: true });
});

describe('cachedComplete', () => {
  it('answers a repeated call from the cache without reaching the server', async () => {
    const first = await cachedComplete(provider, cache, request, { callKey: 'r/t7/solve/0' });
    const again = await cachedComplete(provider, cache, request, { callKey: 'r/t7/solve/0' });
    expect(first.cached).toBe(false);
    expect(again).toEqual({ ...first, cached: true });
    expect(server.log).toHaveLength(1);
    expect(duplicatesAnswered(server.log)).toEqual([]);
  });

  it("charges a reply to the payer that received it: its retry is not `cached`, any other caller's is", async () => {
    // The payer of an activity's calls is its execution, the same in every attempt (activities/llm/payer.ts).
    const first = await cachedComplete(provider, cache, request, { callKey: 'k', payer: 'wf/run/7' });
    const stored = JSON.parse(await readFile(cache.pathOf(cacheKeyOf(request, 'k')), 'utf8')) as { paidBy?: string };
    expect(stored.paidBy).toBe('wf/run/7');
    // A retry of the call whose first attempt was lost after the reply arrived: its result is the one to carry the cost.
    const retry = await cachedComplete(provider, cache, request, { callKey: 'k', payer: 'wf/run/7' });
    expect(retry).toEqual({ ...first, cached: false });
    // Another activity execution (a rerun), or a caller that names no payer: paid for by the first, nothing here.
    expect(await cachedComplete(provider, cache, request, { callKey: 'k', payer: 'wf/run2/7' })).toEqual({
      ...first,
      cached: true,
    });
    expect((await cachedComplete(provider, cache, request, { callKey: 'k' })).cached).toBe(true);
    expect(server.log).toHaveLength(1);
  });

  it('an entry written before payers were recorded is `cached` for every caller', async () => {
    await cachedComplete(provider, cache, request, { callKey: 'old' });
    expect(JSON.parse(await readFile(cache.pathOf(cacheKeyOf(request, 'old')), 'utf8'))).not.toHaveProperty('paidBy');
    expect((await cachedComplete(provider, cache, request, { callKey: 'old', payer: 'wf/run/1' })).cached).toBe(true);
    expect(server.log).toHaveLength(1);
  });

  it('keeps identical prompts under different call keys apart', async () => {
    const a = await cachedComplete(provider, cache, request, { callKey: 'r/t7/solve/0' });
    const b = await cachedComplete(provider, cache, request, { callKey: 'r/t7-copy/solve/0' });
    expect(a.text).not.toBe(b.text);
    expect(server.log).toHaveLength(2);
    expect(cacheKeyOf(request, 'x')).not.toBe(cacheKeyOf(request, 'y'));
  });

  it('keys on model, messages, temperature and maxTokens, not on key order', () => {
    const reordered = { messages: request.messages, maxTokens: 100, temperature: 0, model: 'm' };
    expect(cacheKeyOf(reordered)).toBe(cacheKeyOf(request));
    expect(cacheKeyOf({ ...request, temperature: 0.5 })).not.toBe(cacheKeyOf(request));
    expect(cacheKeyOf({ ...request, maxTokens: 101 })).not.toBe(cacheKeyOf(request));
    expect(cacheKeyOf({ ...request, model: 'm2' })).not.toBe(cacheKeyOf(request));
  });

  it('does not cache a failed call, so the retry reaches the server and then caches', async () => {
    server.inject({ kind: 'server_error' });
    await expect(cachedComplete(provider, cache, request, { callKey: 'k' })).rejects.toThrow();
    const retried = await cachedComplete(provider, cache, request, { callKey: 'k' });
    await cachedComplete(provider, cache, request, { callKey: 'k' });
    expect(retried.cached).toBe(false);
    expect(server.log.map((e) => e.status)).toEqual([500, 200]);
  });

  it('a corrupt entry is a miss that is reported (the call is paid again) and set aside, never silently dropped', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const key = cacheKeyOf(request, 'k');
    await cachedComplete(provider, cache, request, { callKey: 'k' });
    await writeFile(cache.pathOf(key), '{"format":1,"key":');
    expect(await cache.get(key)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain(`corrupt file ${cache.pathOf(key)}: not valid JSON`);
    expect(warn.mock.calls[0][0]).toContain('the model is asked (and paid) again');
    await cachedComplete(provider, cache, request, { callKey: 'k' });
    expect(server.log).toHaveLength(2);
    expect((await readdir(path.dirname(cache.pathOf(key)))).sort()).toEqual([`${key}.json`, `${key}.json.corrupt`]);
    expect(await readFile(`${cache.pathOf(key)}.corrupt`, 'utf8')).toBe('{"format":1,"key":');
    warn.mockRestore();
  });

  it('an entry of the wrong shape or for another key is reported as corrupt, naming the zod issue', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const key = cacheKeyOf(request, 'shape');
    await mkdir(path.dirname(cache.pathOf(key)), { recursive: true });
    await writeFile(cache.pathOf(key), JSON.stringify({ format: 1, key, response: { text: 'x' } }));
    expect(await cache.get(key)).toBeUndefined();
    expect(warn.mock.calls[0][0]).toMatch(/unexpected content: response\.finishReason: /);
    const other = cacheKeyOf(request, 'other');
    await cachedComplete(provider, cache, request, { callKey: 'other' });
    await writeFile(cache.pathOf(key), await readFile(cache.pathOf(other), 'utf8'));
    expect(await cache.get(key)).toBeUndefined();
    expect(warn.mock.calls[1][0]).toContain(`holds the reply for key ${other}`);
    warn.mockRestore();
  });
});
