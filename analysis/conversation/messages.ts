import { PATTERNS, type ConversationSettings, type SendMessageInput } from '../../contracts/conversation';

/**
 * Why a user message cannot be taken, whatever the conversation is doing (pure: the conversation workflow's update
 * validator and the analysis suite's request preparation ask the same questions).
 */
export function textProblem(
  msg: SendMessageInput,
  settings: Pick<ConversationSettings, 'maxMessageChars'>,
): string | undefined {
  if (typeof msg?.text !== 'string' || !msg.text.trim()) return 'the message is empty';
  const max = settings.maxMessageChars;
  if (msg.text.length > max) return `the message has ${msg.text.length} characters; the limit is ${max}`;
  return undefined;
}

export function patternProblem(msg: SendMessageInput): string | undefined {
  if (msg.pattern !== undefined && !PATTERNS.includes(msg.pattern))
    return `unknown pattern "${String(msg.pattern)}"; known: ${PATTERNS.join(', ')}`;
  return undefined;
}
