import { reviseNumbersInstruction } from '../../../analysis/conversation/prompts';
import { bookkeeping } from '../activities';
import { actUntilAnswer } from './actLoop';
import { TurnStop, type AnswerRef, type Turn } from './turn';

/**
 * The answer's numbers are checked against what the turn's tools produced, and the answer against the question and the
 * table the turn saved (`conversationCheckGrounding`); when numbers are not found or the answer is found wrong, the
 * model is asked once (a `revise` step, with the check's evidence) to recompute and answer again. A check recorded
 * before it returned `revision` revises on unfound numbers alone, as it did (same commands on replay). A wrong
 * operation, or unfound numbers with nothing computed to answer from (`recompute`), makes the revision's first step run
 * code (tool choice `required`): small models otherwise repeat themselves. A revision the turn's limits cut short keeps the
 * first answer (its grounding then shows the unfound numbers).
 */
export async function reviseUngrounded(turn: Turn, answer: AnswerRef): Promise<AnswerRef> {
  const check = await bookkeeping.conversationCheckGrounding({ ...turn.ref, answer });
  if (!check.ungrounded.length && !check.revision) return answer;
  try {
    const revised = await actUntilAnswer(turn.continueAgent(answer), {
      instruction: check.revision ?? reviseNumbersInstruction(check.ungrounded),
      ...(check.recompute ? { tools: 'required' as const } : {}),
    });
    return { ...revised, prefix: answer.prefix };
  } catch (err) {
    if (err instanceof TurnStop) return answer;
    throw err;
  }
}
