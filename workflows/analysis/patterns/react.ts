import { actUntilAnswer } from './actLoop';
import type { AnswerRef, Turn } from './turn';

/** ReAct: reason and act with tools until the model answers. */
export function react(turn: Turn): Promise<AnswerRef> {
  return actUntilAnswer(turn.agent('main'));
}
