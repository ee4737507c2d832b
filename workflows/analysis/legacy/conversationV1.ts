import type {
  ConversationState,
  ConversationWorkflowInput,
  Pattern,
  TurnSummary,
} from '../../../contracts/conversation';
import { choosePattern, converse } from '../conversationLoop';
import { PATTERN_RUNNERS, type AnswerRef, type Turn } from '../patterns';

/**
 * FROZEN. The `conversation` workflow as it ran before 'conversation-v2' (workflows/versions.ts): a JIT turn ends with
 * its chosen pattern's answer, unchecked. Replays histories recorded before the marker; retires as VERSIONS.md says.
 */
export function conversationV1(input: ConversationWorkflowInput): Promise<ConversationState> {
  return converse(input, runPatternV1);
}

async function runPatternV1(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  if (pattern !== 'auto') return PATTERN_RUNNERS[pattern](turn);
  return PATTERN_RUNNERS[await choosePattern(turn, summary, dir)](turn);
}
