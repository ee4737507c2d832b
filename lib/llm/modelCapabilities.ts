/**
 * What a model accepts in a chat completion request, where OpenAI-compatible models differ. OpenAI's reasoning models
 * (o1, o3, o4-mini, GPT-5.x but not gpt-5-chat) refuse `max_tokens` ("Use 'max_completion_tokens' instead") and any
 * temperature or top_p but the default, on OpenAI and on Azure alike. The table decides up front; a model it does not
 * describe (an Azure deployment's own name) is adjusted after the provider's first refusal (lib/llm/parameterRefusal.ts).
 * `llm.modelCapabilities` in the config overrides it per model name.
 */
export interface ModelCapabilities {
  /** The request field that caps the reply's tokens (`llm.maxTokens`). */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** False: only the default temperature/top_p is accepted, so the request leaves them out. */
  sampling: boolean;
}

const DEFAULT: ModelCapabilities = { maxTokensField: 'max_tokens', sampling: true };

const OPENAI_REASONING: ModelCapabilities = { maxTokensField: 'max_completion_tokens', sampling: false };

/** First match wins; matched against the model name, with or without an `openai/` or `azure/` prefix. */
const BUILT_IN: ReadonlyArray<{ pattern: RegExp; capabilities: ModelCapabilities }> = [
  { pattern: /^gpt-5(\.\d+)?-chat/, capabilities: DEFAULT },
  { pattern: /^gpt-5/, capabilities: OPENAI_REASONING },
  { pattern: /^o[1-9](-|$)/, capabilities: OPENAI_REASONING },
];

export type CapabilityOverrides = Record<string, Partial<ModelCapabilities>>;

export function capabilitiesOf(model: string, overrides: CapabilityOverrides = {}): ModelCapabilities {
  const name = model.replace(/^(openai|azure)\//, '');
  const builtIn = BUILT_IN.find((entry) => entry.pattern.test(name))?.capabilities ?? DEFAULT;
  return { ...builtIn, ...overrides[model] };
}
