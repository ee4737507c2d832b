import { patched } from '@temporalio/workflow';
import type { ConversationState, ConversationWorkflowInput, Pattern, TurnSummary } from '../../contracts/conversation';
import { CURRENT } from '../versions';
import { choosePattern, converse } from './conversationLoop';
import { conversationV2 } from './legacy/conversationV2';
import { crossCheck, PATTERN_RUNNERS, reviseUngrounded, type AnswerRef, type Turn } from './patterns';
import { useFailover } from '../run/failover';

/**
 * A conversation (the loop: `conversationLoop.ts`). In this generation a JIT (`auto`) turn's answer is checked for
 * numbers its tools did not produce and for a wrong operation, and the model may revise it once; then every pattern's
 * answer that states numbers is cross-checked against a second, independently written program (unless
 * `conversation.crossCheck` is off). Histories recorded before replay on the legacy copies (v1: no check; v2: no
 * cross-check).
 */
export async function conversation(input: ConversationWorkflowInput): Promise<ConversationState> {
  useFailover(input.failover);
  if (!patched(CURRENT.conversation)) return conversationV2(input);
  return converse(input, runPattern);
}

async function runPattern(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  const answer = await patternAnswer(pattern, turn, summary, dir);
  return turn.settings.crossCheck === false ? answer : crossCheck(turn, answer);
}

async function patternAnswer(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  if (pattern !== 'auto') return PATTERN_RUNNERS[pattern](turn);
  const answer = await PATTERN_RUNNERS[await choosePattern(turn, summary, dir)](turn);
  return reviseUngrounded(turn, answer);
}
