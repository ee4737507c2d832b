/**
 * A model's price in USD per million tokens (config `llm.prices`, or the price library). Cached input tokens are part
 * of the input tokens and reasoning tokens part of the output tokens (as OpenAI-compatible usage reports them); each
 * part is priced at its own rate when one is given, else at the rate of the whole.
 */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt tokens the provider read from its prompt cache (`prompt_tokens_details.cached_tokens`). */
  cachedInputPerMTok?: number;
  /** Reasoning tokens (`completion_tokens_details.reasoning_tokens`); most providers bill them as output. */
  reasoningPerMTok?: number;
}

/**
 * Tokens of one model call, or of any sum of calls. Plain data (it travels in Temporal payloads and is stored in JSON),
 * with its operations in the `TokenUsage` object of the same name: `TokenUsage.add(a, b)`, `TokenUsage.priceWith(u, p)`.
 */
export interface TokenUsage {
  /** Prompt (input) tokens, cached ones included. */
  inputTokens: number;
  /** Completion (output) tokens, reasoning ones included. */
  outputTokens: number;
  /** Of `inputTokens`, those the provider read from its prompt cache (when it says). */
  cachedInputTokens?: number;
  /** Of `outputTokens`, those the model spent reasoning (when the provider says). */
  reasoningTokens?: number;
}

/** Every count of a usage: `add` sums each of them, so a new count is added here and in the interface, nowhere else. */
export const USAGE_COUNTS = [
  'inputTokens',
  'outputTokens',
  'cachedInputTokens',
  'reasoningTokens',
] as const satisfies readonly (keyof TokenUsage)[];
type UsageCount = (typeof USAGE_COUNTS)[number];
/** A count in the interface but not in the list does not compile. */
const everyCountListed: [Exclude<keyof TokenUsage, UsageCount>] extends [never] ? true : never = true;
void everyCountListed;

const REQUIRED: readonly UsageCount[] = ['inputTokens', 'outputTokens'];

export const TokenUsage = {
  zero(): TokenUsage {
    return { inputTokens: 0, outputTokens: 0 };
  },

  /** The sum, count by count. An optional count is present when either side has it (old records have none). */
  add(a: TokenUsage, b: TokenUsage): TokenUsage {
    const sum: TokenUsage = TokenUsage.zero();
    for (const count of USAGE_COUNTS) {
      if (REQUIRED.includes(count) || a[count] !== undefined || b[count] !== undefined)
        sum[count] = (a[count] ?? 0) + (b[count] ?? 0);
    }
    return sum;
  },

  /** Input and output tokens together (what budgets and progress count). */
  total(usage: TokenUsage): number {
    return usage.inputTokens + usage.outputTokens;
  },

  /** USD at this price; a model without a price costs 0 (its tokens are still counted). */
  priceWith(usage: TokenUsage, price: ModelPrice | undefined): number {
    if (!price) return 0;
    const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
    const reasoning = Math.min(usage.reasoningTokens ?? 0, usage.outputTokens);
    const input =
      (usage.inputTokens - cached) * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok);
    const output =
      (usage.outputTokens - reasoning) * price.outputPerMTok +
      reasoning * (price.reasoningPerMTok ?? price.outputPerMTok);
    return (input + output) / 1_000_000;
  },
};

/** What model calls spent: their tokens, their cost, how many there were (a task's, a stage's, a run's). */
export interface Spend {
  usage: TokenUsage;
  costUsd: number;
  llmCalls: number;
}

export const Spend = {
  zero(): Spend {
    return { usage: TokenUsage.zero(), costUsd: 0, llmCalls: 0 };
  },

  /** One call's spend. */
  ofCall(call: { usage: TokenUsage; costUsd: number }): Spend {
    return { usage: call.usage, costUsd: call.costUsd, llmCalls: 1 };
  },

  add(a: Spend, b: Spend): Spend {
    return {
      usage: TokenUsage.add(a.usage, b.usage),
      costUsd: a.costUsd + b.costUsd,
      llmCalls: a.llmCalls + b.llmCalls,
    };
  },
};
