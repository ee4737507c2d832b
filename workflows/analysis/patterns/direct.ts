import { DIRECT_INSTRUCTION } from '../../../analysis/conversation/prompts';
import type { AnswerRef, Turn } from './turn';

/** Direct: one code run (tool use required), then the answer from its output. */
export async function direct(turn: Turn): Promise<AnswerRef> {
  const agent = turn.agent('main');
  const reply = await agent.step('act', { instruction: DIRECT_INSTRUCTION, tools: 'required' });
  if (!reply.toolCalls.length) return agent.answer();
  await agent.runTools(reply);
  await agent.step('act', { tools: 'none' });
  return agent.answer();
}
