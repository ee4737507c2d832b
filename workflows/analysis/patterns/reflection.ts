import { CRITIQUE_INSTRUCTION, critiquePasses, REFINE_INSTRUCTION } from '../../../analysis/conversation/prompts';
import { actUntilAnswer } from './actLoop';
import type { AnswerRef, Turn } from './turn';

/** Reflection: answer, critique the answer against the checklist, refine once when the critique asks for it. */
export async function reflection(turn: Turn): Promise<AnswerRef> {
  const agent = turn.agent('main');
  const first = await actUntilAnswer(agent);
  const critique = await agent.step('critique', { instruction: CRITIQUE_INSTRUCTION });
  if (critiquePasses(critique.text)) return first;
  return actUntilAnswer(agent, { instruction: REFINE_INSTRUCTION });
}
