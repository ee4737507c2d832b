import {
  carryOutInstruction,
  evaluateInstruction,
  parseBest,
  proposeInstruction,
} from '../../../analysis/conversation/prompts';
import { actUntilAnswer } from './actLoop';
import type { AnswerRef, Turn } from './turn';

/** Tree-of-Thoughts: branches propose approaches in parallel (parallel activities), one step evaluates, the best is carried out. */
export async function treeOfThoughts(turn: Turn): Promise<AnswerRef> {
  const n = turn.settings.branches;
  const branches = Array.from({ length: n }, (_, i) => turn.agent(`branch-${i + 1}`));
  const proposals = await Promise.all(
    branches.map((b, i) => b.step('think', { instruction: proposeInstruction(i + 1, n) })),
  );
  const main = turn.agent('main');
  const evaluation = await main.step('evaluate', {
    instruction: evaluateInstruction(
      proposals.map((p) => p.text),
      'approaches',
    ),
  });
  const best = parseBest(evaluation.text, n);
  return actUntilAnswer(main, { instruction: carryOutInstruction(proposals[best].text) });
}
