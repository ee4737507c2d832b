import type { ChatMessage } from './types';

/** Rough token count (≈ 4 characters per token) for budgets and rate limits before a provider reports real usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessageTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
}
