import type { TokenUsage } from '../../lib/llm/usage';

/**
 * The parts of a token total the provider reported, for the places tokens are shown: " (256 cached in, 64 reasoning
 * out)", or "" when it reported none (records written before the counts existed have none).
 */
export function tokenPartsText(
  usage: Pick<TokenUsage, 'cachedInputTokens' | 'reasoningTokens'>,
  count: (n: number) => string = String,
): string {
  const parts = [
    ...(usage.cachedInputTokens ? [`${count(usage.cachedInputTokens)} cached in`] : []),
    ...(usage.reasoningTokens ? [`${count(usage.reasoningTokens)} reasoning out`] : []),
  ];
  return parts.length ? ` (${parts.join(', ')})` : '';
}
