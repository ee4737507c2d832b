import type { CorrectnessEvidence } from './correctness';
import { splitCsvLine } from './tableAgreement';

/**
 * The answer rebuilt from what the turn's code computed, for models that retype results wrongly (the embedded ones):
 * when the answer states numbers its code did not compute, or numbers that disagree with the table the code saved, the
 * computed result (the saved table, else what the last run printed) is shown as the answer instead; an answer stating
 * no number gets the computed result below it. A right answer (every number found, none disagreeing) is left as it is,
 * and so is one whose code did the wrong operation (its result answers another question: the note says so instead).
 * Pure functions, no I/O.
 */

/** Table rows shown (a longer table is cut, saying so). */
const MAX_TABLE_ROWS = 19;
/** Printed output longer than this is not shown as the answer. */
const MAX_PRINTED_LINES = 12;
const MAX_PRINTED_CHARS = 1_500;

export const COMPUTED_LEAD = '**Computed result**';
export const REPLACED_NOTE =
  "_The model's own answer stated numbers that its code did not compute (it is kept in the debug view), so the result the code computed is shown instead._";

export interface ComputedAnswer {
  text: string;
  /** replaced: the model's text is not shown; appended: the result follows it. */
  how: 'replaced' | 'appended';
}

/** The answer to show instead of `answer`, or undefined to keep it. */
export function computedAnswer(
  answer: string,
  evidence: CorrectnessEvidence,
  grounding: { total: number; grounded: number },
): ComputedAnswer | undefined {
  if (evidence.operation) return undefined;
  const result = renderedResult(evidence);
  if (!result) return undefined;
  const unsupported = grounding.grounded < grounding.total || evidence.rows.length > 0;
  if (unsupported) return { text: `${result}\n\n${REPLACED_NOTE}`, how: 'replaced' };
  if (grounding.total === 0) return { text: `${answer}\n\n${result}`.trim(), how: 'appended' };
  return undefined;
}

/**
 * The saved table as a markdown table, else the last printed output as quoted lines; undefined when neither, and when
 * the saved table holds no value (the 1.5B's `index,price` / `59,` from a rolling mean of one row): what was printed
 * beside it is then no result either (the REPL echo of save_table's entry), so the answer is left for the note.
 */
function renderedResult(evidence: CorrectnessEvidence): string | undefined {
  if (evidence.table) {
    if (!tableHoldsValue(evidence.table.head)) return undefined;
    const table = markdownTable(evidence.table.head);
    if (table) return `${COMPUTED_LEAD} (the table the code saved, \`${evidence.table.file}\`):\n\n${table}`;
  }
  return printedResult(evidence.printed, 'what the code printed');
}

/** Whether some row of a saved table (CSV head) has a value beyond its label column (a one-column table: in it). */
export function tableHoldsValue(csv: string): boolean {
  const [header = '', ...rows] = csv.split(/\r?\n/).filter((l) => l.trim());
  const from = splitCsvLine(header).length > 1 ? 1 : 0;
  const isValue = (c: string) => c.trim() !== '' && c.trim().toLowerCase() !== 'nan';
  return rows.some((r) => splitCsvLine(r).slice(from).some(isValue));
}

/**
 * What a program printed, shown as the computed result (quoted lines, `source` saying whose output it is); undefined
 * when it printed nothing, or a long dump (a whole column, a data frame), which is not a result to answer with.
 */
export function printedResult(output: string | undefined, source: string): string | undefined {
  const printed = output?.trim();
  if (!printed) return undefined;
  const lines = printed.split(/\r?\n/);
  if (lines.length > MAX_PRINTED_LINES || printed.length > MAX_PRINTED_CHARS) return undefined;
  return `${COMPUTED_LEAD} (${source}):\n\n${lines.map((l) => `> ${l}`).join('  \n')}`;
}

function markdownTable(csv: string): string | undefined {
  const [header, ...rows] = csv.split(/\r?\n/).filter((l) => l.trim());
  if (!header || !rows.length) return undefined;
  const cells = (line: string) => splitCsvLine(line).map((c) => c.trim().replace(/\|/g, '\\|'));
  const head = cells(header);
  // The head quoted by the check has at most 20 rows: 19 are shown, and a marker when the file has more.
  const shown = rows.slice(0, MAX_TABLE_ROWS).map(cells);
  const body = rows.length > MAX_TABLE_ROWS ? [...shown, ['… (more rows in the file)']] : shown;
  return [head, head.map(() => '---'), ...body].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
