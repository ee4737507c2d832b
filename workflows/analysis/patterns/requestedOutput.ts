import { bookkeeping } from '../activities';
import { TurnStop, type Agent, type AnswerRef, type Turn } from './turn';

/** Code runs the ask allows: the code that saves the output, and one fix (then the answer step is offered no tools). */
const ASK_CODE_RUNS = 2;

/**
 * A chart or table the question asks for and the turn did not save, or a placeholder answered where a value should be
 * (`conversationRequestedOutput`): the agent that answered is asked once, with the helper call to make, to run code and
 * answer again (its first step must call a tool). The ask is bounded: at most two code runs, then an answer step
 * without tools (the 1.5B under `direct`, asked for a10's chart, sent calls the text protocol could not read, each
 * nesting the last, until the turn's step limit). A request the turn's limits cut short keeps the answer it had.
 */
export async function askForRequestedOutput(turn: Turn, answer: AnswerRef): Promise<AnswerRef> {
  const missing = await bookkeeping.conversationRequestedOutput({ ...turn.ref, answer });
  if (!missing.instruction) return answer;
  try {
    const revised = await boundedAsk(turn.continueAgent(answer), missing.instruction);
    return { ...revised, prefix: answer.prefix };
  } catch (err) {
    if (err instanceof TurnStop) return answer;
    throw err;
  }
}

/** The ask's steps: one that must run code, one that may fix it, one that answers. */
async function boundedAsk(agent: Agent, instruction: string): Promise<AnswerRef> {
  let reply = await agent.step('act', { instruction, tools: 'required' });
  for (let runs = 1; reply.toolCalls.length && runs <= ASK_CODE_RUNS; runs++) {
    await agent.runTools(reply);
    reply = await agent.step('act', { tools: runs < ASK_CODE_RUNS ? 'auto' : 'none' });
  }
  return agent.answer();
}
