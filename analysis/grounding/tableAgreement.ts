import { NumberIndex } from './match';
import { numbersInOutput, numbersInProse } from './numbers';

/**
 * The answer's numbers checked against the table the turn saved: where the answer names a row of the table (its label,
 * "Paris") and states a number next to it, that number must be one of the row's values (to the precision shown).
 * Pure functions, no I/O.
 */

/** Rows read from a table (the first ones: an answer cites few, and the check must stay cheap). */
const MAX_ROWS = 200;

/** A row the answer names with a number that is not in it. */
export interface RowDisagreement {
  label: string;
  stated: string;
  /** The row's values, as the table writes them. */
  expected: string[];
}

interface TableRow {
  label: string;
  values: string[];
}

/** The rows the answer names with a number not in the row; empty when it names none, or when most agree. */
export function tableDisagreements(answer: string, csv: string): RowDisagreement[] {
  const rows = labelledRows(csv);
  const numbers = numbersInProse(answer);
  const mentions = rows
    .flatMap((row) => {
      const at = findLabel(answer, row.label);
      return at < 0 ? [] : [{ row, at: at + row.label.length }];
    })
    .sort((a, b) => a.at - b.at);
  const checked = mentions.flatMap((m, i) => {
    const until = Math.min(mentions[i + 1]?.at ?? answer.length, lineEnd(answer, m.at));
    const stated = numbers.find((n) => n.start >= m.at && n.start < until);
    return stated ? [{ row: m.row, stated, agrees: rowHas(m.row, stated) }] : [];
  });
  const wrong = checked.filter((c) => !c.agrees);
  if (!wrong.length || wrong.length * 2 < checked.length) return [];
  return wrong.map((c) => ({ label: c.row.label, stated: c.stated.text, expected: c.row.values }));
}

/** The table's rows with a text label (its first non-numeric column) and the values of its numeric columns. */
export function labelledRows(csv: string): TableRow[] {
  const [header, ...lines] = csv.split(/\r?\n/).filter((l) => l.trim());
  if (!header) return [];
  const cells = lines.slice(0, MAX_ROWS).map(splitCsvLine);
  const width = splitCsvLine(header).length;
  const numeric = (c: number) => cells.every((r) => r[c] === '' || r[c] === undefined || isNumber(r[c]));
  const labelColumn = Array.from({ length: width }, (_, c) => c).find((c) => !numeric(c));
  const valueColumns = Array.from({ length: width }, (_, c) => c).filter((c) => c !== labelColumn && numeric(c));
  if (labelColumn === undefined || !valueColumns.length) return [];
  return cells
    .map((r) => ({ label: (r[labelColumn] ?? '').trim(), values: valueColumns.map((c) => r[c] ?? '').filter(Boolean) }))
    .filter((r) => r.label.length >= 2 && r.values.length);
}

function rowHas(row: TableRow, stated: ReturnType<typeof numbersInProse>[number]): boolean {
  const index = new NumberIndex();
  index.add(0, numbersInOutput(row.values.join(' ')));
  return index.find(stated) !== undefined;
}

/** Where the label stands as a word in the answer (case-insensitive), or -1. */
function findLabel(answer: string, label: string): number {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'iu').exec(answer)?.index ?? -1;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end;
}

function isNumber(cell: string): boolean {
  return /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(cell);
}

/** One CSV line's cells (double quotes honoured, `""` inside quotes). */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else cell += ch;
  }
  out.push(cell);
  return out;
}
