import { NumberIndex } from './match';
import { numbersInCode, numbersInOutput, numbersInProse } from './numbers';
import { describeSource, type SourceText } from './sources';
import type { Grounding } from './types';

/** Values taken from one source at most (a huge table adds little beyond its first rows and costs memory). */
const MAX_VALUES_PER_SOURCE = 200_000;

/**
 * Matches every number of an answer's prose against the values its turn's tools produced: each is grounded (with the
 * tool call and output line it came from) or not. Numbers in code blocks are counted, not checked.
 */
export function groundAnswer(answer: string, sources: SourceText[]): Omit<Grounding, 'answerOffset'> {
  const index = new NumberIndex();
  sources.forEach((s, i) => index.add(i, numbersInOutput(s.text, MAX_VALUES_PER_SOURCE)));
  const numbers = numbersInProse(answer).map((n) => {
    const found = index.find(n);
    const base = { text: n.text, value: n.value, start: n.start, end: n.end };
    return found
      ? { ...base, grounded: true, source: describeSource(sources[found.source], found.at) }
      : { ...base, grounded: false };
  });
  const grounded = numbers.filter((n) => n.grounded).length;
  const inCode = numbersInCode(answer);
  const produced = index.size;
  return { numbers, total: numbers.length, grounded, inCode, produced, ...noteFor(numbers.length, inCode, sources) };
}

/** What to tell the reader when the check has nothing to do, or nothing to compare with. */
function noteFor(total: number, inCode: number, sources: SourceText[]): { note?: string } {
  const toolOutput = sources.some((s) => s.kind !== 'question');
  if (total === 0 && inCode)
    return {
      note: `The answer states no numbers outside its code (${inCode} in code blocks are code, not claims, and are not checked).`,
    };
  if (total === 0) return { note: 'The answer states no numbers: nothing to check.' };
  if (!toolOutput)
    return {
      note: "No tool produced any output in this turn (the code printed and wrote nothing), so none of the answer's numbers can be traced to code that ran.",
    };
  return {};
}
