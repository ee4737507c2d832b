import { bookkeeping } from '../activities';
import { actUntilAnswer } from './actLoop';
import { TurnStop, type AnswerRef, type Turn } from './turn';

/**
 * A chart or table the question asks for and the turn did not save (`conversationRequestedOutput`): the agent that
 * answered is asked once, with the helper call to make, to run code that saves it and answer again (its first step
 * must call a tool). A request the turn's limits cut short keeps the answer it had.
 */
export async function askForRequestedOutput(turn: Turn, answer: AnswerRef): Promise<AnswerRef> {
  const missing = await bookkeeping.conversationRequestedOutput({ ...turn.ref, answer });
  if (!missing.instruction) return answer;
  try {
    const revised = await actUntilAnswer(turn.continueAgent(answer), {
      instruction: missing.instruction,
      tools: 'required',
    });
    return { ...revised, prefix: answer.prefix };
  } catch (err) {
    if (err instanceof TurnStop) return answer;
    throw err;
  }
}
