import type {
  ConversationState,
  ConversationWorkflowInput,
  Pattern,
  TurnSummary,
} from '../../../contracts/conversation';
import { patched } from '@temporalio/workflow';
import { choosePattern, converse } from '../conversationLoop';
import { conversationV1 } from './conversationV1';
import { PATTERN_RUNNERS, reviseUngrounded, type AnswerRef, type Turn } from '../patterns';

/**
 * FROZEN. The `conversation` workflow as it ran under 'conversation-v2' (workflows/versions.ts): a JIT turn's answer is
 * checked (`conversationCheckGrounding`) and may be revised once; no second program. Replays histories recorded under
 * that marker, and hands histories from before it on to `conversationV1`; retires as VERSIONS.md says.
 */
export function conversationV2(input: ConversationWorkflowInput): Promise<ConversationState> {
  if (!patched('conversation-v2')) return conversationV1(input);
  return converse(input, runPatternV2);
}

async function runPatternV2(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  if (pattern !== 'auto') return PATTERN_RUNNERS[pattern](turn);
  const answer = await PATTERN_RUNNERS[await choosePattern(turn, summary, dir)](turn);
  return reviseUngrounded(turn, answer);
}
