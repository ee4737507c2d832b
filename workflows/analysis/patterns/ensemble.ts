import { evaluateInstruction, parseBest } from '../../../analysis/conversation/prompts';
import { actUntilAnswer } from './actLoop';
import type { AnswerRef, Turn } from './turn';

/** Ensemble: several agents solve the request in parallel; a judge compares their results and one is recommended. */
export async function ensemble(turn: Turn): Promise<AnswerRef> {
  const n = turn.settings.branches;
  const members = Array.from({ length: n }, (_, i) => turn.agent(`member-${i + 1}`));
  const settled = await Promise.allSettled(members.map((m) => actUntilAnswer(m)));
  const done = settled.flatMap((s, i) =>
    s.status === 'fulfilled' ? [{ member: members[i], answer: s.value, text: '' }] : [],
  );
  if (!done.length) throw (settled[0] as PromiseRejectedResult).reason;
  // Candidate texts for the judge are the members' answer previews (the step results), kept short.
  for (const d of done) d.text = d.member.lastText;
  const judge = turn.agent('judge');
  const verdict = await judge.step('evaluate', {
    instruction: evaluateInstruction(
      done.map((d) => d.text),
      'results',
    ),
  });
  const best = done[parseBest(verdict.text, done.length)];
  return {
    ...best.answer,
    prefix: `**Recommendation** (agent ${best.member.name} of ${n}; the comparison is in the evaluate step):`,
  };
}
