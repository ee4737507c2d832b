import { NumberIndex } from './match';
import { numbersInOutput, numbersInProse, type WrittenNumber } from './numbers';
import { operationMismatch, type OperationMismatch } from './operation';

/**
 * The cross-check of an answer against a second program written independently for the same question (another prompt,
 * no sight of the first program or its answer): both computed the same thing when the numbers agree, one of them is
 * wrong when they do not. Pure functions, no I/O.
 *
 * Agreement is read in both directions, each to the precision written: every number the answer states is a value the
 * second program printed (it may print more), or every number the second program printed is stated in the answer (the
 * answer may say more, "1988 over 24 rows"). Numbers the question gives ("2 decimals", "top 5") are nobody's result.
 */

/** A second program printing more numbers than this dumped data: only the answer-to-program direction is read. */
const MAX_PRINTED_NUMBERS = 40;
/** Printing more than this, it dumped so much that any number would be found in it: nothing to compare. */
const MAX_COMPARED_NUMBERS = 400;

export type Agreement =
  | { verdict: 'agree'; how: 'answer-in-program' | 'program-in-answer' }
  | { verdict: 'disagree'; unmatched: string[] }
  | { verdict: 'inconclusive'; why: string };

/** Whether the answer's numbers and what the second program printed agree. */
export function compareWithProgram(answer: string, printed: string, question: string): Agreement {
  const asked = questionValues(question);
  const stated = numbersInProse(answer).filter((n) => !asked(n));
  if (!stated.length) return { verdict: 'inconclusive', why: 'the answer states no number of its own' };
  const output = numbersInOutput(printed);
  if (!output.length) return { verdict: 'inconclusive', why: 'the second program printed no number' };
  if (output.length > MAX_COMPARED_NUMBERS)
    return { verdict: 'inconclusive', why: `the second program printed ${output.length} numbers, not a result` };
  const produced = new NumberIndex();
  produced.add(0, output);
  const unmatched = stated.filter((n) => !produced.find(n));
  if (!unmatched.length) return { verdict: 'agree', how: 'answer-in-program' };
  if (programInAnswer(printed, answer, asked)) return { verdict: 'agree', how: 'program-in-answer' };
  return { verdict: 'disagree', unmatched: unmatched.map((n) => n.text) };
}

/** Every number the program printed (as it printed it) is stated in the answer; false for a dump of many numbers. */
function programInAnswer(printed: string, answer: string, asked: (n: WrittenNumber) => boolean): boolean {
  const results = numbersInProse(printed).filter((n) => !asked(n));
  if (!results.length || results.length > MAX_PRINTED_NUMBERS) return false;
  const stated = new NumberIndex();
  stated.add(0, numbersInOutput(answer));
  return results.every((n) => stated.find(n));
}

/** Numbers the question itself gives, matched as written (a "2" in "2 decimals" is not a result). */
function questionValues(question: string): (n: WrittenNumber) => boolean {
  const given = new Set(numbersInProse(question).map((n) => n.value));
  return (n) => given.has(n.value);
}

/** Which of two disagreeing programs the operation check trusts, when it tells them apart. */
export type OperationPick = 'first' | 'second' | 'neither';

/**
 * The operation check (a total answered with a row count, distinct values with every row) run on each program: when
 * exactly one of them did the wrong operation, the other is trusted; otherwise the check cannot choose.
 */
export function pickByOperation(
  question: string,
  firstCodes: string[],
  secondCodes: string[],
): { pick: OperationPick; first?: OperationMismatch; second?: OperationMismatch } {
  const first = operationMismatch(question, firstCodes);
  const second = operationMismatch(question, secondCodes);
  const pick = first && !second ? 'second' : second && !first ? 'first' : 'neither';
  return { pick, ...(first ? { first } : {}), ...(second ? { second } : {}) };
}
