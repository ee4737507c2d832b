import { LlmError } from './errors';
import {
  loadLocalModel,
  type LlamaContext,
  type LlamaHistoryItem,
  type LlamaSequence,
  type LoadedLocalModel,
} from './localRuntime';
import type { ChatMessage, ChatRequest, ChatResponse, CompleteOptions, FinishReason, LlmProvider } from './types';

export interface LocalProviderConfig {
  localModelPath?: string;
  temperature?: number;
  maxTokens?: number;
  /**
   * Keep one context per model and process and reuse its evaluated prompt prefix across requests (default true): a
   * request that starts like the previous one (the same system prompt, the same task, a repair that extends the
   * conversation) evaluates only what differs. false: a fresh context per request (the behaviour before).
   */
  reusePrefix?: boolean;
  /** Threads per request (default THREADS_PER_REQUEST); bench/llm-local-threads.ts measures the choice. */
  threads?: number;
}

const DEFAULT_MAX_TOKENS = 1024;
/** Room for the chat template's control tokens around the messages. */
const TEMPLATE_OVERHEAD_TOKENS = 64;
/**
 * One thread per request: llama.cpp threads spin-wait, and on a small shared host more threads than free cores made
 * an 8-token reply take 19 s instead of 0.4 s (measured on the 2-core dev machine under load). Measured again with
 * `bench/llm-local-threads.ts` (1.5B, a 2,779-token checked_vote prompt, one request at a time, another local-model
 * run holding one of the 2 cores): 1 thread 45.9 prompt tokens/s and 16.7 generation tokens/s; 2 threads had not
 * finished the same prompt after 4 minutes.
 */
const THREADS_PER_REQUEST = 1;

/**
 * Tokens of the context kept per model and process (its KV cache: about 230 MB for the 1.5B): enough for a checked_vote
 * conversation with a repair. A longer request gets a fresh context of its own size.
 */
const KEPT_CONTEXT_TOKENS = 8_192;

interface KeptContext {
  context: LlamaContext;
  sequence: LlamaSequence;
  busy: boolean;
}

const keptContexts = new Map<string, Promise<KeptContext>>();

/**
 * An embedded GGUF model through node-llama-cpp: the model loads once per process. Requests reuse one kept context
 * (and the KV cache of the prompt prefix it already evaluated) while it is free; a request that arrives while it is
 * busy, or that does not fit it, gets a fresh context as before.
 */
export class LocalProvider implements LlmProvider {
  readonly name = 'local';

  constructor(private readonly config: LocalProviderConfig = {}) {}

  async complete(request: ChatRequest, opts: CompleteOptions = {}): Promise<ChatResponse> {
    const local = await loadLocalModel(this.config.localModelPath, request.model);
    const maxTokens = request.maxTokens ?? this.config.maxTokens ?? DEFAULT_MAX_TOKENS;
    const contextSize = contextSizeFor(local, request.messages, maxTokens);
    const threads = this.config.threads ?? THREADS_PER_REQUEST;
    const kept = this.config.reusePrefix === false ? undefined : await keptContextFor(local, contextSize, threads);
    if (kept) {
      try {
        return await generate(local, kept.sequence, request, maxTokens, this.config.temperature, opts.signal);
      } catch (err) {
        // A context that failed mid-request is not trusted again: the next request builds a new one.
        keptContexts.delete(local.modelPath);
        await kept.context.dispose().catch(() => undefined); // best-effort cleanup; the request's own error is thrown
        throw err;
      } finally {
        kept.busy = false;
      }
    }
    const context = await local.model.createContext({ contextSize, threads });
    try {
      return await generate(local, context.getSequence(), request, maxTokens, this.config.temperature, opts.signal);
    } finally {
      await context.dispose();
    }
  }
}

/** The model's kept context, claimed, when it is free and the request fits it (created on first use). */
async function keptContextFor(
  local: LoadedLocalModel,
  contextSize: number,
  threads: number,
): Promise<KeptContext | undefined> {
  const size = Math.min(KEPT_CONTEXT_TOKENS, local.model.trainContextSize);
  if (contextSize > size) return undefined;
  let kept = keptContexts.get(local.modelPath);
  if (!kept) {
    kept = local.model.createContext({ contextSize: size, threads }).then((context) => ({
      context,
      sequence: context.getSequence(),
      busy: false,
    }));
    keptContexts.set(local.modelPath, kept);
    kept.catch(() => keptContexts.delete(local.modelPath));
  }
  const ready = await kept;
  if (ready.busy) return undefined;
  ready.busy = true; // claimed in the same turn it was found free: two requests never share it
  return ready;
}

/**
 * One reply on a sequence. Input tokens are the whole prompt (as an API counts them), also when most of it was reused
 * from the sequence's KV cache: the sequence holds the prompt and the reply once it is done.
 */
async function generate(
  local: LoadedLocalModel,
  sequence: LlamaSequence,
  request: ChatRequest,
  maxTokens: number,
  defaultTemperature: number | undefined,
  signal: AbortSignal | undefined,
): Promise<ChatResponse> {
  const before = sequence.tokenMeter.getState();
  const chat = new local.llama.LlamaChat({ contextSequence: sequence });
  const reply = await chat.generateResponse(historyOf(request.messages), {
    maxTokens,
    temperature: request.temperature ?? defaultTemperature,
    signal,
  });
  const used = sequence.tokenMeter.diff(before);
  const held = sequence.contextTokens.length - used.usedOutputTokens;
  return {
    text: reply.response,
    finishReason: finishReasonOf(reply.metadata.stopReason),
    usage: { inputTokens: Math.max(used.usedInputTokens, held), outputTokens: used.usedOutputTokens },
    model: request.model,
    cached: false,
  };
}

function contextSizeFor(local: LoadedLocalModel, messages: ChatMessage[], maxTokens: number): number {
  const promptTokens = messages.reduce(
    (sum, m) => sum + local.model.tokenize(m.content).length,
    TEMPLATE_OVERHEAD_TOKENS,
  );
  const limit = local.model.trainContextSize;
  if (promptTokens >= limit) {
    throw new LlmError(
      'context_too_long',
      `prompt of ~${promptTokens} tokens exceeds the local model's context of ${limit}`,
    );
  }
  return Math.min(limit, roundUp(promptTokens + maxTokens, 256));
}

function roundUp(n: number, step: number): number {
  return Math.ceil(n / step) * step;
}

/** The trailing empty model turn is where node-llama-cpp writes the reply. */
function historyOf(messages: ChatMessage[]): LlamaHistoryItem[] {
  const items = messages.map((m): LlamaHistoryItem =>
    m.role === 'assistant'
      ? { type: 'model', response: [m.content] }
      : { type: m.role === 'tool' ? 'user' : m.role, text: m.content },
  );
  return [...items, { type: 'model', response: [] }];
}

function finishReasonOf(stopReason: string): FinishReason {
  if (stopReason === 'maxTokens') return 'length';
  return stopReason === 'abort' ? 'other' : 'stop';
}
