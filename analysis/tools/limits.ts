import type { AnalysisConfig } from '../../config/schema';

/** The model may ask for less time than the configured limit, never more. */
export function executionTimeoutMs(requestedSeconds: number | undefined, config: AnalysisConfig): number {
  const max = config.executionTimeoutMs;
  return requestedSeconds === undefined ? max : Math.min(max, Math.max(1000, Math.round(requestedSeconds * 1000)));
}
