import type { CorrectnessEvidence } from './correctness';
import { numbersInProse } from './numbers';
import type { GroundedNumber } from './types';

/** Opens the note; everything from it to the end of the shown answer is the system's, not the answer. */
export const CHECK_FAILED_LEAD = '> **Check failed:**';

/**
 * What the reader is told under an answer that is still wrong when its turn ends (after the one revision): the
 * operation that does not fit, or the numbers that match nothing the turn's tools produced, with the table the code
 * saved (else what it last printed), so the right numbers in hand are shown. An answer none of whose numbers any tool
 * produced is noted whether or not a table was saved (the 1.5B, given the downloaded JSON by web_fetch, answered a sum
 * of 2555 with an invented 1000, unflagged), unless a second, independently written program computed them (`confirmed`:
 * the cross-check agreed). None for an answer found right.
 */
export function correctnessNote(
  evidence: CorrectnessEvidence & { wrong: boolean },
  grounding: { total: number; grounded: number; numbers?: GroundedNumber[] },
  confirmed = false,
  question = '',
): string | undefined {
  const unfound = noneOfItsOwnFound(grounding, question) && !confirmed;
  if (!evidence.wrong && !unfound) return undefined;
  const why = evidence.operation
    ? `the question asks for the ${evidence.operation.asked}, but the code counted ${evidence.operation.kind === 'distinct' ? 'every row' : 'rows'} (\`${evidence.operation.used}\`)`
    : evidence.rows.length
      ? `its numbers disagree with the table the code saved (${evidence.rows.map((r) => `${r.label}: ${r.stated}, table ${r.expected.join(' / ')}`).join('; ')})`
      : "none of its numbers are in what this turn's code and tools produced";
  return `${CHECK_FAILED_LEAD} this answer is likely wrong: ${why}.${evidence.operation ? '' : computedQuote(evidence)}`;
}

/**
 * No number the answer states of its own was produced by a tool: numbers the question gives ("the 7-day average is
 * 102.67": the 7) are not the answer's results, wherever they were found (the 1.5B's invented 102.67 for 83.65 went
 * unflagged: its 7 was found first in a tool output echoing the title "7-day Moving Average").
 */
function noneOfItsOwnFound(
  grounding: { total: number; grounded: number; numbers?: GroundedNumber[] },
  question: string,
): boolean {
  if (!grounding.numbers) return grounding.total > 0 && grounding.grounded === 0;
  const given = new Set(numbersInProse(question).map((n) => n.value));
  const own = grounding.numbers.filter((n) => n.source?.kind !== 'question' && !given.has(n.value));
  return own.length > 0 && own.every((n) => !n.grounded);
}

/** The table the code saved, else what it last printed: the numbers in hand, quoted under the note. */
function computedQuote(evidence: CorrectnessEvidence): string {
  if (evidence.table)
    return `\n\nThe table the code saved (${evidence.table.file}):\n\n\`\`\`\n${evidence.table.head}\n\`\`\``;
  return evidence.printed ? `\n\nWhat the code printed last:\n\n\`\`\`\n${evidence.printed}\n\`\`\`` : '';
}
