import { describe, expect, it } from 'vitest';
import { RateLimitedProvider } from '../../lib/llm/rateLimitedProvider';
import type { RateLimiter } from '../../lib/llm/rateLimiter';
import type { ChatResponse, LlmProvider } from '../../lib/llm/types';

const reply: ChatResponse = {
  text: 'ok',
  finishReason: 'stop',
  usage: { inputTokens: 10, outputTokens: 5 },
  model: 'm',
  cached: false,
};
const inner: LlmProvider = { name: 'fake', complete: () => Promise.resolve(reply) };

/** A limiter whose releases are recorded and settle only as the test says. */
function limiter(release: () => Promise<void>) {
  const released: (number | undefined)[] = [];
  const l: RateLimiter = {
    acquire: () =>
      Promise.resolve({
        grantedAt: Date.now(),
        release: (tokens?: number) => (released.push(tokens), release()),
      }),
  };
  return { l, released };
}

describe('RateLimitedProvider', () => {
  it('hands the reply back without waiting for the permit to be released (the reply is cached first)', async () => {
    const { l, released } = limiter(() => new Promise<void>(() => undefined)); // a release that never ends
    const r = await new RateLimitedProvider(inner, l).complete({ model: 'm', messages: [] });
    expect(r).toBe(reply);
    expect(released).toEqual([15]); // started at once, with the real usage
  });

  it('a release that fails does not fail the call that was answered', async () => {
    const { l, released } = limiter(() => Promise.reject(new Error('lock busy')));
    await expect(new RateLimitedProvider(inner, l).complete({ model: 'm', messages: [] })).resolves.toBe(reply);
    expect(released).toEqual([15]);
  });

  it('a failed call releases with 0 tokens and still fails', async () => {
    const { l, released } = limiter(() => Promise.resolve());
    const failing: LlmProvider = { name: 'fake', complete: () => Promise.reject(new Error('500')) };
    await expect(new RateLimitedProvider(failing, l).complete({ model: 'm', messages: [] })).rejects.toThrow('500');
    expect(released).toEqual([0]);
  });
});
