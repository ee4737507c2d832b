import { splitCsvLine } from '../../analysis/grounding/tableAgreement';

/**
 * Whether a saved table or a chart's data file shows the right values, whatever its columns are named: one column
 * holds every expected label exactly once (one row per label, no other row) and another holds each label's value. A
 * chart of row counts, of unaggregated rows or of the wrong measure fails; a right table whose sum column is named
 * `total_amount` passes. Pure functions, no I/O.
 */

export interface ExpectedValues {
  /** label → value, e.g. region → total amount. */
  values: Record<string, number>;
  /** Compared as shares of their sum (a pie of units or of percentages shows the same shares). */
  proportional?: boolean;
}

/** Where to look: the chart's own x and y columns, or (a table) any pair of columns. */
export interface ValueColumns {
  label?: string;
  values?: string[];
}

const ABSOLUTE_TOLERANCE = 0.01;
const SHARE_TOLERANCE = 0.005;

export function showsValues(csv: string, expected: ExpectedValues, columns: ValueColumns = {}): boolean {
  const [headerLine, ...lines] = csv.split(/\r?\n/).filter((l) => l.trim());
  if (!headerLine) return false;
  const header = splitCsvLine(headerLine).map(unquote);
  const rows = lines.map((l) => splitCsvLine(l).map(unquote));
  const indexOf = (name: string | undefined) => (name === undefined ? -1 : header.indexOf(name));
  const all = header.map((_, i) => i);
  const labels = columns.label !== undefined ? [indexOf(columns.label)].filter((i) => i >= 0) : all;
  const values = columns.values ? columns.values.map(indexOf).filter((i) => i >= 0) : all;
  return labels.some((l) => values.some((v) => v !== l && pairMatches(rows, l, v, expected)));
}

function pairMatches(rows: string[][], labelAt: number, valueAt: number, expected: ExpectedValues): boolean {
  const keys = Object.keys(expected.values);
  if (rows.length !== keys.length) return false;
  const shown = new Map<string, number>();
  for (const row of rows) {
    const label = row[labelAt] ?? '';
    const value = Number(row[valueAt]);
    if (shown.has(label) || row[valueAt] === undefined || row[valueAt] === '' || !Number.isFinite(value)) return false;
    shown.set(label, value);
  }
  if (!keys.every((k) => shown.has(k))) return false;
  if (!expected.proportional)
    return keys.every((k) => Math.abs(shown.get(k)! - expected.values[k]) <= ABSOLUTE_TOLERANCE);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const shownTotal = sum([...shown.values()]);
  const expectedTotal = sum(Object.values(expected.values));
  if (!shownTotal || !expectedTotal) return false;
  return keys.every(
    (k) => Math.abs(shown.get(k)! / shownTotal - expected.values[k] / expectedTotal) <= SHARE_TOLERANCE,
  );
}

function unquote(cell: string): string {
  return cell.trim().replace(/^"|"$/g, '');
}
