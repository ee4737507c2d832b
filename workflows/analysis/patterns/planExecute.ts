import { executePlanInstruction, PLAN_INSTRUCTION } from '../../../analysis/conversation/prompts';
import { actUntilAnswer } from './actLoop';
import type { AnswerRef, Turn } from './turn';

/** Plan-and-Execute: a plan first (a `plan` step event, kept in the transcript), then ReAct carrying it out. */
export async function planExecute(turn: Turn): Promise<AnswerRef> {
  const agent = turn.agent('main');
  await agent.step('plan', { instruction: PLAN_INSTRUCTION });
  return actUntilAnswer(agent, { instruction: executePlanInstruction() });
}
