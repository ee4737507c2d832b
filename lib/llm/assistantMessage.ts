import type { ChatMessage, ChatResponse } from './types';

/** A reply as the transcript keeps it: its text and, when the provider returned one, its reasoning (never sent back). */
export function assistantMessageOf(response: Pick<ChatResponse, 'text' | 'reasoning'>): ChatMessage {
  return {
    role: 'assistant',
    content: response.text,
    ...(response.reasoning ? { reasoning: response.reasoning } : {}),
  };
}
