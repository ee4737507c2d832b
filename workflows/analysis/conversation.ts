import { patched } from '@temporalio/workflow';
import type { ConversationState, ConversationWorkflowInput, Pattern, TurnSummary } from '../../contracts/conversation';
import { CURRENT } from '../versions';
import { choosePattern, converse } from './conversationLoop';
import { conversationV2 } from './legacy/conversationV2';
import {
  askForRequestedOutput,
  crossCheck,
  PATTERN_RUNNERS,
  reviseUngrounded,
  type AnswerRef,
  type Turn,
} from './patterns';
import { useFailover } from '../run/failover';

/**
 * A conversation (the loop: `conversationLoop.ts`). In this generation a JIT (`auto`) turn's answer is checked for
 * numbers its tools did not produce and for a wrong operation, and the model may revise it once; then a turn of any
 * pattern that saved no chart or table its question asks for is asked once to save it (patch
 * `conversation-requested-output`); then every answer that states numbers is cross-checked against a second,
 * independently written program (unless `conversation.crossCheck` is off). Histories recorded before replay on the
 * legacy copies (v1: no check; v2: no cross-check).
 */
export async function conversation(input: ConversationWorkflowInput): Promise<ConversationState> {
  useFailover(input.failover);
  if (!patched(CURRENT.conversation)) return conversationV2(input);
  return converse(input, runPattern);
}

/**
 * Marks the turns that check for the chart or table their question asks for (`askForRequestedOutput`) before the
 * cross-check: new commands inside 'conversation-v3' (workflows/VERSIONS.md), absent from histories recorded before.
 */
export const REQUESTED_OUTPUT_PATCH = 'conversation-requested-output';

async function runPattern(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  const given = await patternAnswer(pattern, turn, summary, dir);
  const answer = patched(REQUESTED_OUTPUT_PATCH) ? await askForRequestedOutput(turn, given) : given;
  return turn.settings.crossCheck === false ? answer : crossCheck(turn, answer);
}

async function patternAnswer(pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string): Promise<AnswerRef> {
  if (pattern !== 'auto') return PATTERN_RUNNERS[pattern](turn);
  const answer = await PATTERN_RUNNERS[await choosePattern(turn, summary, dir)](turn);
  return reviseUngrounded(turn, answer);
}
