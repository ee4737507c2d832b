import OpenAI from 'openai';
import type { LlmConfig } from '../../config/schema';
import { usesLocalModel } from './index';

export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** Local servers need no key, but the client refuses to start without one (as in openaiProvider.ts). */
const PLACEHOLDER_API_KEY = 'sk-sheetbench-no-key';

/**
 * Before any task starts: is the endpoint reachable, does it accept the key, does it serve the model? Asks the model
 * list (free); an endpoint without one is asked for a one-token completion instead. Throws PreflightError with the cause.
 */
export async function preflightModel(
  config: Pick<LlmConfig, 'provider' | 'baseUrl' | 'apiKey' | 'model'>,
  timeoutMs = 20_000,
): Promise<void> {
  if (usesLocalModel(config)) return;
  const where = config.baseUrl ?? 'https://api.openai.com/v1';
  const client = new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey || PLACEHOLDER_API_KEY,
    maxRetries: 0,
    timeout: timeoutMs,
  });
  let served: string[];
  try {
    served = (await client.models.list()).data.map((m) => m.id);
  } catch (err) {
    if (!(err instanceof OpenAI.NotFoundError)) throw preflightFailure(err, where, config.model);
    served = [];
    await client.chat.completions
      .create({ model: config.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 })
      .catch((e: unknown) => {
        throw preflightFailure(e, where, config.model);
      });
  }
  if (served.length && !served.includes(config.model)) {
    const listed = served.slice(0, 12).join(', ') + (served.length > 12 ? `, … (${served.length})` : '');
    throw new PreflightError(`the model endpoint ${where} does not serve model ${config.model} (it lists: ${listed})`);
  }
}

function preflightFailure(err: unknown, where: string, model: string): PreflightError {
  const detail = err instanceof Error ? err.message : String(err);
  if (err instanceof OpenAI.AuthenticationError || err instanceof OpenAI.PermissionDeniedError) {
    return new PreflightError(
      `the model endpoint ${where} refused the API key (OPENAI_API_KEY / llm.apiKey): ${detail}`,
    );
  }
  if (err instanceof OpenAI.NotFoundError)
    return new PreflightError(`the model endpoint ${where} does not know model ${model}: ${detail}`);
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    return new PreflightError(
      `the model endpoint ${where} is unreachable: ${cause instanceof Error ? cause.message : detail}`,
    );
  }
  return new PreflightError(`the model endpoint ${where} failed the preflight check: ${detail}`);
}
