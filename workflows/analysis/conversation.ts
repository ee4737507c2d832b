import { patched } from '@temporalio/workflow';
import type { ConversationState, ConversationWorkflowInput, Pattern, TurnSummary } from '../../contracts/conversation';
import { CURRENT } from '../versions';
import { choosePattern, converse } from './conversationLoop';
import { conversationV1 } from './legacy/conversationV1';
import { PATTERN_RUNNERS, reviseUngrounded, type AnswerRef, type Turn } from './patterns';

/**
 * A conversation (the loop: `conversationLoop.ts`). In this generation a JIT (`auto`) turn's answer is checked for
 * numbers its tools did not produce, and the model may revise it once. Histories recorded before replay on the legacy copy.
 */
export async function conversation(input: ConversationWorkflowInput): Promise<ConversationState> {
  if (!patched(CURRENT.conversation)) return conversationV1(input);
  return converse(input, runPattern);
}

async function runPattern(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  if (pattern !== 'auto') return PATTERN_RUNNERS[pattern](turn);
  const answer = await PATTERN_RUNNERS[await choosePattern(turn, summary, dir)](turn);
  return reviseUngrounded(turn, answer);
}
