import { CLASSIFY_INSTRUCTION, parseClassification } from '../../../analysis/conversation/prompts';
import type { Pattern } from '../../../contracts/conversation';
import type { AnswerRef, Turn } from './turn';

/** JIT: a classify step picks the pattern (its reasoning is the step's text); returns the choice and the reason shown. */
export async function classify(turn: Turn): Promise<{ pattern: Exclude<Pattern, 'auto'>; note: string }> {
  const reply = await turn.agent('classifier').step('classify', { instruction: CLASSIFY_INSTRUCTION });
  const { pattern, recognised } = parseClassification(reply.text);
  return {
    pattern,
    note: recognised ? `Chose pattern ${pattern}.` : `The classification named no known pattern; using ${pattern}.`,
  };
}

export type PatternRunner = (turn: Turn) => Promise<AnswerRef>;
