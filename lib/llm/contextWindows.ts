/**
 * Context windows (tokens a request may hold, prompt and reply together) of the models the benchmarks name, from the
 * providers' model pages. A model capability, not a setting: config `llm.contextWindows` adds models or overrides one.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'gpt-3.5-turbo-0125': 16_385,
  'gpt-4-turbo-2024-04-09': 128_000,
  'gpt-4o-2024-05-13': 128_000,
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
};

/** The window assumed for a model neither the table nor the config lists (GPT-4o's). */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The config key that sets the window of every model not listed (`llm.contextWindows["*"]`). */
export const ANY_MODEL = '*';

/** A model's context window: the config's entry, else the table's, else the config's `*`, else the default. */
export function contextWindowOf(model: string, overrides: Readonly<Record<string, number>> = {}): number {
  return overrides[model] ?? CONTEXT_WINDOWS[model] ?? overrides[ANY_MODEL] ?? DEFAULT_CONTEXT_WINDOW;
}
