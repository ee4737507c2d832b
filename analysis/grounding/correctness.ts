import { operationMismatch, type OperationMismatch } from './operation';
import type { SourceText } from './sources';
import { tableDisagreements, type RowDisagreement } from './tableAgreement';

/**
 * What makes a grounded answer still wrong, with the evidence to show the model: the operation does not fit the
 * question (it counted rows where a total was asked), or the answer's numbers disagree with the table the turn saved.
 */
export interface CorrectnessEvidence {
  operation?: OperationMismatch;
  /** The last table the turn saved (workspace path and its first lines): what a revision should answer from. */
  table?: { file: string; head: string };
  rows: RowDisagreement[];
  /** The first lines the turn's last code run printed: what to answer from when the turn saved no table. */
  printed?: string;
}

/** Lines of the saved table quoted back to the model. */
const TABLE_LINES = 21;

/** The evidence against an answer; `wrong` when the operation does not fit or the answer disagrees with the table. */
export function checkCorrectness(input: {
  question: string;
  codes: string[];
  answer: string;
  sources: SourceText[];
}): CorrectnessEvidence & { wrong: boolean } {
  const operation = operationMismatch(input.question, input.codes);
  const saved = input.sources.filter((s) => s.kind === 'table' && s.file).at(-1);
  const rows = saved ? tableDisagreements(input.answer, saved.text) : [];
  const table = saved
    ? { file: saved.file!, head: saved.text.split(/\r?\n/).slice(0, TABLE_LINES).join('\n').trim() }
    : undefined;
  const stdout = input.sources.filter((s) => s.kind === 'stdout').at(-1);
  const printed = stdout?.text.split(/\r?\n/).slice(0, TABLE_LINES).join('\n').trim();
  return {
    operation,
    rows,
    ...(table ? { table } : {}),
    ...(printed ? { printed } : {}),
    wrong: Boolean(operation) || rows.length > 0,
  };
}
