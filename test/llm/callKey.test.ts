import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cachedComplete,
  callKeyOf,
  canonicalJson,
  legacyCallKeys,
  ResponseCache,
  type ChatRequest,
  type ChatResponse,
  type LlmProvider,
} from '../../lib/llm';
import { sourceFiles } from '../architecture/importGraph';

const request: ChatRequest = {
  model: 'm',
  temperature: 0,
  maxTokens: 100,
  messages: [{ role: 'user', content: 'answer question 7' }],
};

/** A provider that must not be reached: every call it gets is one paid twice. */
function countingProvider(): LlmProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'counting',
    calls,
    async complete(_req, opts) {
      calls.push(opts?.callKey ?? '');
      return {
        text: 'paid again',
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 2 },
        model: 'm',
        cached: false,
      };
    },
  };
}

/**
 * A cache entry exactly as the release before the one builder recorded it: its key recipe (format 1: sha256 of the
 * canonical JSON of the request fields and the call key as discriminator) and its stored shape, written by hand.
 */
function writeOldEntry(dir: string, oldCallKey: string, text: string): void {
  const { model, messages, temperature, maxTokens } = request;
  const identity = { format: 1, model, messages, temperature, maxTokens, discriminator: oldCallKey };
  const key = createHash('sha256').update(canonicalJson(identity)).digest('hex');
  const response: Omit<ChatResponse, 'cached'> = {
    text,
    finishReason: 'stop',
    usage: { inputTokens: 40, outputTokens: 5 },
    model: 'm',
  };
  mkdirSync(path.join(dir, key.slice(0, 2)), { recursive: true });
  writeFileSync(path.join(dir, key.slice(0, 2), `${key}.json`), JSON.stringify({ format: 1, key, response }));
}

describe('callKeyOf: one builder for every call key', () => {
  it('writes untagged keys as every site wrote them, and a tag after #', () => {
    expect(callKeyOf(['run', '79-7', 'main', 3])).toBe('run/79-7/main/3');
    expect(callKeyOf(['run', 'q1', 'agent/2'])).toBe('run/q1/agent/2');
    expect(callKeyOf(['conv', 'step-4', 'critic'])).toBe('conv/step-4/critic');
    expect(callKeyOf(['run', '79-7', 'copilot', 'plan'], 'rerun-abc')).toBe('run/79-7/copilot/plan#rerun-abc');
    expect(callKeyOf(['run', 'q1', 'judge'], 'rejudge-1')).toBe('run/q1/judge#rejudge-1');
  });

  it('knows the older spelling of a tagged key (DSBench wrote /<tag>), and none for an untagged one', () => {
    expect(legacyCallKeys('run/q1/agent/2#rerun-abc')).toEqual(['run/q1/agent/2/rerun-abc']);
    expect(legacyCallKeys('run/q1/judge#rejudge-1')).toEqual(['run/q1/judge/rejudge-1']);
    expect(legacyCallKeys('run/q1/answer')).toEqual([]);
  });
});

describe('replies recorded under the old call-key formats are found: nothing paid is paid again', () => {
  it('a DSBench rerun answer recorded under <run>/<task>/<stage>/<tag>', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-callkey-'));
    writeOldEntry(dir, 'run/q1/answer/rerun-abc', 'recorded with /tag');
    const provider = countingProvider();
    const reply = await cachedComplete(provider, new ResponseCache(dir), request, {
      callKey: callKeyOf(['run', 'q1', 'answer'], 'rerun-abc'),
    });
    expect(reply).toMatchObject({ text: 'recorded with /tag', cached: true });
    expect(provider.calls).toEqual([]);
  });

  it('a DSBench rejudge recorded under <run>/<task>/judge/<tag>', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-callkey-'));
    writeOldEntry(dir, 'run/q1/judge/rejudge-1', 'judged once');
    const provider = countingProvider();
    const reply = await cachedComplete(provider, new ResponseCache(dir), request, {
      callKey: callKeyOf(['run', 'q1', 'judge'], 'rejudge-1'),
    });
    expect(reply).toMatchObject({ text: 'judged once', cached: true });
    expect(provider.calls).toEqual([]);
  });

  it('a SpreadsheetBench rerun turn recorded under <run>/<task>/<conversation>/<turn>#<tag>', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-callkey-'));
    writeOldEntry(dir, 'run/79-7/copilot/plan#rerun-abc', 'recorded with #tag');
    writeOldEntry(dir, 'run/79-7/main/0', 'untagged turn');
    const provider = countingProvider();
    const cache = new ResponseCache(dir);
    const tagged = await cachedComplete(provider, cache, request, {
      callKey: callKeyOf(['run', '79-7', 'copilot', 'plan'], 'rerun-abc'),
    });
    const untagged = await cachedComplete(provider, cache, request, { callKey: callKeyOf(['run', '79-7', 'main', 0]) });
    expect([tagged.text, untagged.text]).toEqual(['recorded with #tag', 'untagged turn']);
    expect(provider.calls).toEqual([]);
  });

  it('a different call (another tag, another stage) still reaches the model', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-callkey-'));
    writeOldEntry(dir, 'run/q1/answer/rerun-abc', 'recorded with /tag');
    const provider = countingProvider();
    const cache = new ResponseCache(dir);
    await cachedComplete(provider, cache, request, { callKey: callKeyOf(['run', 'q1', 'answer'], 'rerun-xyz') });
    await cachedComplete(provider, cache, request, { callKey: callKeyOf(['run', 'q1', 'judge'], 'rerun-abc') });
    expect(provider.calls).toEqual(['run/q1/answer#rerun-xyz', 'run/q1/judge#rerun-abc']);
  });
});

describe('no call key is built by hand', () => {
  it('every product file builds its call keys with callKeyOf', () => {
    const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const handBuilt = /callKey\s*(:|=)\s*`/;
    const found = sourceFiles(repo)
      .filter((f) => !f.startsWith('test/') && f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(path.join(repo, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (handBuilt.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
