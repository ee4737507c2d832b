import type { CorrectnessEvidence } from './correctness';

/** Opens the note; everything from it to the end of the shown answer is the system's, not the answer. */
export const CHECK_FAILED_LEAD = '> **Check failed:**';

/**
 * What the reader is told under an answer that is still wrong when its turn ends (after the one revision): the
 * operation that does not fit, or the numbers that match nothing the code computed, with the table the code saved,
 * so the right numbers in hand are shown. None for an answer found right.
 */
export function correctnessNote(
  evidence: CorrectnessEvidence & { wrong: boolean },
  grounding: { total: number; grounded: number },
): string | undefined {
  const unfound = grounding.total > 0 && grounding.grounded === 0 && evidence.table !== undefined;
  if (!evidence.wrong && !unfound) return undefined;
  const why = evidence.operation
    ? `the question asks for the ${evidence.operation.asked}, but the code counted ${evidence.operation.kind === 'distinct' ? 'every row' : 'rows'} (\`${evidence.operation.used}\`)`
    : evidence.rows.length
      ? `its numbers disagree with the table the code saved (${evidence.rows.map((r) => `${r.label}: ${r.stated}, table ${r.expected.join(' / ')}`).join('; ')})`
      : 'none of its numbers are in what the code computed';
  const table =
    evidence.table && !evidence.operation
      ? `\n\nThe table the code saved (${evidence.table.file}):\n\n\`\`\`\n${evidence.table.head}\n\`\`\``
      : '';
  return `${CHECK_FAILED_LEAD} this answer is likely wrong: ${why}.${table}`;
}
