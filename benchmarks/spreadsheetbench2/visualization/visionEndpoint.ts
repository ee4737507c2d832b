import type { VisionJudgeConfig } from '../../../config/schema';
import type { JudgeSettings } from './checklistJudge';

export type VisionEndpoint =
  | ({ ready: true; baseUrl: string; apiKey: string; requestTimeoutMs: number } & JudgeSettings)
  | { ready: false; reason: string };

/**
 * The configured vision judge with its key (read from the environment variable the config names, else
 * OPENAI_API_KEY, as the release reads VLM_API_KEY then OPENAI_API_KEY), or why there is none: the reason a run gives
 * for leaving its Visualization tasks unjudged. `judgeModel` (rejudge --judge-model) replaces the configured model.
 */
export function visionEndpointOf(
  config: VisionJudgeConfig,
  env: NodeJS.ProcessEnv,
  judgeModel?: string,
): VisionEndpoint {
  if (!config.baseUrl)
    return { ready: false, reason: 'no vision judge is configured (set visionJudge.baseUrl, then run rejudge)' };
  const apiKey = env[config.apiKeyEnv] || env.OPENAI_API_KEY;
  if (!apiKey)
    return {
      ready: false,
      reason: `the vision judge's key is not set (environment variable ${config.apiKeyEnv}, or OPENAI_API_KEY)`,
    };
  return {
    ready: true,
    baseUrl: config.baseUrl,
    apiKey,
    requestTimeoutMs: config.requestTimeoutMs,
    model: judgeModel ?? config.model,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
  };
}
