import { columnName, parseAnswerPosition, type RangeTarget } from '../../scoring/answerPosition';
import { openWorkbookValues, type WorkbookValues } from '../../../workbook/ooxmlReader';
import { token } from './checks';

/** At most this many cells of a sheet are compared (a big sheet's scan stays bounded). */
const MAX_SCANNED_CELLS = 50_000;
/** Ranges named in the feedback; the rest are counted. */
const MAX_RANGES = 4;

/**
 * The cells a candidate changed outside the answer region, on the answer region's sheets, as column runs
 * ("Before!I2:I19"). Shown with an unchanged or empty answer region: the 1.5B counts columns wrong
 * (checked-vote-v5, 599-9: it wrote column 9, I, for the answer column K, and its repair, told only that the answer
 * cells were unchanged, wrote column I again). Never a reason to fail a candidate: many tasks change other cells too.
 */
export async function writesOutsideRegion(
  inputFile: string,
  outputFile: string,
  answerPosition: string,
): Promise<string[]> {
  const [input, output] = await Promise.all([openWorkbookValues(inputFile), openWorkbookValues(outputFile)]);
  const targets = new Map<string, RangeTarget[]>();
  for (const piece of parseAnswerPosition(answerPosition, 'strict').pieces) {
    const name = piece.sheet ?? output.sheetnames[0];
    targets.set(name, [...(targets.get(name) ?? []), piece.target]);
  }
  const runs: string[] = [];
  for (const [name, inRegion] of targets) {
    if (!input.sheetnames.includes(name) || !output.sheetnames.includes(name)) continue;
    const changed = await changedColumns(input, output, name, inRegion);
    const sheet = /^[A-Za-z_][\w.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
    for (const [col, rows] of changed) {
      const c = columnName(col);
      runs.push(...rowRuns(rows).map(([s, e]) => (s === e ? `${sheet}!${c}${s}` : `${sheet}!${c}${s}:${c}${e}`)));
    }
  }
  return runs.length > MAX_RANGES
    ? [...runs.slice(0, MAX_RANGES), `and ${runs.length - MAX_RANGES} more range(s)`]
    : runs;
}

/** Per column, the rows whose value differs between input and output outside the region. */
async function changedColumns(
  input: WorkbookValues,
  output: WorkbookValues,
  name: string,
  region: RangeTarget[],
): Promise<Map<number, number[]>> {
  const [a, b] = await Promise.all([input.sheet(name), output.sheet(name)]);
  const rows = Math.max(a.maxRow, b.maxRow);
  const cols = Math.max(a.maxColumn, b.maxColumn);
  const changed = new Map<number, number[]>();
  let scanned = 0;
  for (let col = 1; col <= cols; col++) {
    for (let row = 1; row <= rows && scanned < MAX_SCANNED_CELLS; row++, scanned++) {
      if (region.some((t) => contains(t, row, col))) continue;
      const before = token({ value: a.get(row, col), uncachedFormula: a.isUncachedFormula(row, col) });
      const after = token({ value: b.get(row, col), uncachedFormula: b.isUncachedFormula(row, col) });
      if (before !== after) changed.set(col, [...(changed.get(col) ?? []), row]);
    }
  }
  return changed;
}

function contains(t: RangeTarget, row: number, col: number): boolean {
  if (t.kind === 'error') return false;
  const inColumns = col >= t.colStart && col <= t.colEnd;
  return t.kind === 'columns' ? inColumns : inColumns && row >= t.rowStart && row <= t.rowEnd;
}

/** Consecutive rows as [first, last] runs. */
function rowRuns(rows: number[]): [number, number][] {
  const out: [number, number][] = [];
  let start = rows[0];
  for (let i = 1; i <= rows.length; i++) {
    if (i < rows.length && rows[i] === rows[i - 1] + 1) continue;
    out.push([start, rows[i - 1]]);
    start = rows[i];
  }
  return out;
}
