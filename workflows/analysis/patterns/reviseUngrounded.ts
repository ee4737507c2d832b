import { reviseNumbersInstruction } from '../../../analysis/conversation/prompts';
import { bookkeeping } from '../activities';
import { actUntilAnswer } from './actLoop';
import { TurnStop, type AnswerRef, type Turn } from './turn';

/**
 * The answer's numbers are checked against what the turn's tools produced; when some are not found, the model is asked
 * once (a `revise` step) to check them with code and answer again. A revision the turn's limits cut short keeps the
 * first answer (its grounding then shows the unfound numbers).
 */
export async function reviseUngrounded(turn: Turn, answer: AnswerRef): Promise<AnswerRef> {
  const check = await bookkeeping.conversationCheckGrounding({ ...turn.ref, answer });
  if (!check.ungrounded.length) return answer;
  try {
    const revised = await actUntilAnswer(turn.continueAgent(answer), {
      instruction: reviseNumbersInstruction(check.ungrounded),
    });
    return { ...revised, prefix: answer.prefix };
  } catch (err) {
    if (err instanceof TurnStop) return answer;
    throw err;
  }
}
