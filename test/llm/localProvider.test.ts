import { describe, expect, it } from 'vitest';
import { classifyLlmError, createProvider, LocalProvider } from '../../lib/llm';

describe('LocalProvider (node-llama-cpp + the GGUF installed by npm run setup)', () => {
  it('answers a tiny prompt with real token counts and stops at maxTokens', async () => {
    const provider = createProvider({ provider: 'local', requestTimeoutMs: 60_000 });
    expect(provider).toBeInstanceOf(LocalProvider);
    const started = Date.now();
    const reply = await provider.complete({
      model: 'local-gemma3-270m',
      temperature: 0,
      maxTokens: 8,
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'What is the capital of France?' },
      ],
    });
    expect(reply.text.length).toBeGreaterThan(0);
    expect(reply.usage.inputTokens).toBeGreaterThan(5);
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    expect(reply.usage.outputTokens).toBeLessThanOrEqual(8);
    expect(['stop', 'length']).toContain(reply.finishReason);
    expect(reply.cached).toBe(false);
    // The model is loaded once per process: a second call pays only for the generation.
    const second = Date.now();
    const again = await provider.complete({ model: 'local', maxTokens: 4, temperature: 0, messages: [{ role: 'user', content: 'Hi' }] });
    expect(again.usage.outputTokens).toBeLessThanOrEqual(4);
    console.log(`local model: first call ${second - started} ms (incl. load), second ${Date.now() - second} ms`);
  });

  it('names the fix when the model file is missing, as a non-retryable failure', async () => {
    const provider = new LocalProvider({ localModelPath: '/nonexistent/model.gguf' });
    const err = await provider.complete({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/model file \/nonexistent\/model\.gguf not found.*npm run setup/);
    expect(classifyLlmError(err).retryable).toBe(false);
  });
});
