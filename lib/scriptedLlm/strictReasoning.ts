import type { ScriptedRequest, Script } from './script';

/** An OpenAI error body: `{ error: { message, type, param, code } }`. */
export interface RefusalBody {
  error: { message: string; type: string; param: string; code: string };
}

/** The reasoning tokens a strict model's reply spends when the reply does not say. */
export const DEFAULT_REASONING_TOKENS = 64;

export function isStrictReasoningModel(script: Script, model: string): boolean {
  return script.strictReasoning?.models.test(model) ?? false;
}

/**
 * What OpenAI answers a reasoning model's request that sets a field it does not take (o-series, GPT-5.x, on Azure too),
 * one field at a time, `max_tokens` first: 400 `unsupported_parameter` for `max_tokens`, 400 `unsupported_value` for a
 * temperature or top_p other than the default 1 (the bodies are OpenAI's, word for word).
 */
export function strictRefusalOf(request: ScriptedRequest): RefusalBody | undefined {
  if (request.maxTokensField === 'max_tokens')
    return refusal(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  for (const [param, value] of [
    ['temperature', request.temperature],
    ['top_p', request.topP],
  ] as const) {
    if (value !== undefined && value !== 1)
      return refusal(
        `Unsupported value: '${param}' does not support ${value} with this model. Only the default (1) value is supported.`,
        param,
        'unsupported_value',
      );
  }
  return undefined;
}

function refusal(message: string, param: string, code: string): RefusalBody {
  return { error: { message, type: 'invalid_request_error', param, code } };
}
