import { fixInstruction } from '../../../analysis/conversation/prompts';
import { TurnStop, type AnswerRef, type Turn } from './turn';

const MAX_ATTEMPTS = 3;

/** Iterative refinement: run code; while it fails, ask for a fix (bounded); then answer from the working run. */
export async function iterative(turn: Turn): Promise<AnswerRef> {
  const agent = turn.agent('main');
  let instruction: string | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const reply = await agent.step('act', { instruction, tools: 'required' });
    if (!reply.toolCalls.length) return agent.answer();
    const results = await agent.runTools(reply);
    if (results.every((r) => r.ok)) {
      await agent.step('act', { tools: 'none' });
      return agent.answer();
    }
    instruction = fixInstruction(attempt + 1, MAX_ATTEMPTS);
  }
  throw new TurnStop(`the code still failed after ${MAX_ATTEMPTS} attempts`, 'tool');
}
