import { describe, expect, it } from 'vitest';
import { classifyLlmError, createProvider, LocalProvider } from '../../lib/llm';
import { DEFAULT_LOCAL_MODEL, installCommand, LOCAL_MODELS } from '../../lib/llm/localModels';
import { embeddedModelPath } from '../../lib/llm/localRuntime';

describe('LocalProvider (node-llama-cpp + the embedded Qwen2.5-Coder GGUF installed by set-up)', () => {
  it('answers a tiny prompt with real token counts and stops at maxTokens', async () => {
    const provider = createProvider({ provider: 'local', requestTimeoutMs: 60_000 });
    expect(provider).toBeInstanceOf(LocalProvider);
    const started = Date.now();
    const reply = await provider.complete({
      model: DEFAULT_LOCAL_MODEL,
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
    const again = await provider.complete({
      model: 'local',
      maxTokens: 4,
      temperature: 0,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(again.usage.outputTokens).toBeLessThanOrEqual(4);
    console.log(`local model: first call ${second - started} ms (incl. load), second ${Date.now() - second} ms`);
  });

  it('reuses its kept context: whole prompts are counted, requests at once each answer, and the opt-out still works', async () => {
    const request = {
      model: DEFAULT_LOCAL_MODEL,
      temperature: 0,
      maxTokens: 4,
      messages: [
        { role: 'system' as const, content: 'You answer in one word.' },
        { role: 'user' as const, content: 'Name a colour.' },
      ],
    };
    const fresh = await new LocalProvider({ reusePrefix: false }).complete(request);
    const provider = new LocalProvider();
    const first = await provider.complete(request);
    // The second request's prompt is all in the kept KV cache, yet it counts as a whole prompt, as an API counts it.
    const again = await provider.complete(request);
    expect(first.usage.inputTokens).toBe(fresh.usage.inputTokens);
    expect(again.usage.inputTokens).toBe(fresh.usage.inputTokens);
    expect(again.text).toBe(first.text);
    // Two at once: one takes the kept context, the other a fresh one.
    const both = await Promise.all([provider.complete(request), provider.complete({ ...request, maxTokens: 2 })]);
    expect(both.map((r) => r.usage.inputTokens)).toEqual([fresh.usage.inputTokens, fresh.usage.inputTokens]);
    expect(both[0].text).toBe(first.text);
  }, 300_000);

  it('names the fix when the model file is missing, as a non-retryable failure', async () => {
    const provider = new LocalProvider({ localModelPath: '/nonexistent/model.gguf' });
    const err = await provider
      .complete({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(String(err)).toMatch(/model file \/nonexistent\/model\.gguf not found.*Fix: run `bash scripts\/setup\.sh`/);
    expect(classifyLlmError(err).retryable).toBe(false);
  });

  it('a model name that is not an embedded model, or one not installed, is named with the fix', () => {
    expect(() => embeddedModelPath('gpt-4o-mini')).toThrow(
      /gpt-4o-mini is not an embedded model \(embedded: local-qwen2\.5-coder-0\.5b, local-qwen2\.5-coder-1\.5b\); for a model behind an endpoint give --base-url/,
    );
    expect(embeddedModelPath('local')).toBe(embeddedModelPath(DEFAULT_LOCAL_MODEL));
    expect(installCommand('local-qwen2.5-coder-0.5b')).toBe(
      'bash scripts/setup.sh --with-model local-qwen2.5-coder-0.5b',
    );
    expect(installCommand(DEFAULT_LOCAL_MODEL)).toBe('bash scripts/setup.sh');
  });

  it('the registry set-up verifies against holds the published sizes and checksums', () => {
    expect(LOCAL_MODELS['local-qwen2.5-coder-0.5b']).toMatchObject({
      bytes: 491_400_064,
      sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    });
    expect(LOCAL_MODELS['local-qwen2.5-coder-1.5b']).toMatchObject({
      bytes: 1_117_320_768,
      sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    });
    expect(LOCAL_MODELS['local-qwen2.5-coder-1.5b'].packages).toHaveLength(22);
  });
});
