import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

  it('treats a corrupt entry as a miss and leaves no temp files behind', async () => {
    const key = cacheKeyOf(request, 'k');
    await cachedComplete(provider, cache, request, { callKey: 'k' });
    await writeFile(cache.pathOf(key), '{"format":1,"key":');
    expect(await cache.get(key)).toBeUndefined();
    await cachedComplete(provider, cache, request, { callKey: 'k' });
    expect(server.log).toHaveLength(2);
    expect(await readdir(path.dirname(cache.pathOf(key)))).toEqual([`${key}.json`]);
  });
});
