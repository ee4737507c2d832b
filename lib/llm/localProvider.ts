import { LlmError } from './errors';
import { loadLocalModel, type LlamaHistoryItem, type LoadedLocalModel } from './localRuntime';
import type { ChatMessage, ChatRequest, ChatResponse, CompleteOptions, FinishReason, LlmProvider } from './types';

export interface LocalProviderConfig {
  localModelPath?: string;
  temperature?: number;
  maxTokens?: number;
}

const DEFAULT_MAX_TOKENS = 1024;
/** Room for the chat template's control tokens around the messages. */
const TEMPLATE_OVERHEAD_TOKENS = 64;
/**
 * One thread per request: llama.cpp threads spin-wait, and on a small shared host more threads than free cores made
 * an 8-token reply take 19 s instead of 0.4 s (measured on the 2-core dev machine under load).
 */
const THREADS_PER_REQUEST = 1;

/** An embedded GGUF model through node-llama-cpp: the model loads once per process, each request gets a fresh context. */
export class LocalProvider implements LlmProvider {
  readonly name = 'local';

  constructor(private readonly config: LocalProviderConfig = {}) {}

  async complete(request: ChatRequest, opts: CompleteOptions = {}): Promise<ChatResponse> {
    const local = await loadLocalModel(this.config.localModelPath, request.model);
    const maxTokens = request.maxTokens ?? this.config.maxTokens ?? DEFAULT_MAX_TOKENS;
    const context = await local.model.createContext({
      contextSize: contextSizeFor(local, request.messages, maxTokens),
      threads: THREADS_PER_REQUEST,
    });
    try {
      const sequence = context.getSequence();
      const before = sequence.tokenMeter.getState();
      const chat = new local.llama.LlamaChat({ contextSequence: sequence });
      const reply = await chat.generateResponse(historyOf(request.messages), {
        maxTokens,
        temperature: request.temperature ?? this.config.temperature,
        signal: opts.signal,
      });
      const used = sequence.tokenMeter.diff(before);
      return {
        text: reply.response,
        finishReason: finishReasonOf(reply.metadata.stopReason),
        usage: { inputTokens: used.usedInputTokens, outputTokens: used.usedOutputTokens },
        model: request.model,
        cached: false,
      };
    } finally {
      await context.dispose();
    }
  }
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
