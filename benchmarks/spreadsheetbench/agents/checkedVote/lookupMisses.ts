import { columnName } from '../../scoring/answerPosition';
import { describeValue, type CellValue } from '../../../workbook/cellValue';
import { columnIndex, type SheetValues, type WorkbookValues } from '../../../workbook/ooxmlReader';
import { callsOf, type FormulaCall } from './formulaCalls';
import { shifted } from './formulaFill';
import { onlyReferenceOf, sheetOf, type FormulaReference } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';

/**
 * An exact lookup that finds nothing in one answer cell although the value it looks for is in the same column (or
 * row) of the same sheet, outside the range it searches: the range starts too low or stops too early (checked-vote-v7,
 * 18645: MATCH(D2,Data!$A$2:$A$6,0) misses "00 Targeting" in Data!A1, a sheet without a header row, and IFERROR turned
 * the miss into "", which passed every other check).
 */
export interface LookupMiss {
  /** The answer cell, e.g. "G2". */
  cell: string;
  /** The lookup as written in the formula (for the first cell). */
  call: string;
  /** The looked-up value, described, and where it was read ("D2"). */
  value: string;
  valueAt: string;
  /** The range searched in that cell, and the cell outside it that holds the value ("Data!A1"). */
  searched: string;
  foundAt: string;
  /**
   * Set when the looked-up value is nowhere in the searched column but the text in a cell beside it is (checked-vote-v9,
   * 50066: `MATCH(A2, …)` looks up the label "Search Name:" in A2, the name searched for is in B2): the reference to
   * look up instead, anchored when the fill reads the value from one cell. `foundAt` is then where that text is.
   */
  instead?: string;
  /** The looked-up reference as the formula writes it ("A2"): what `instead` replaces. */
  written: string;
  /**
   * Set when the value is in the searched column just above (or below) a column range that is the range argument as
   * written: that range and the row it should start (or end) at (18645: Data!$A$2:$A$6 from row 1).
   */
  widen?: { range: FormulaReference; row: number };
}

/** Answer cells looked at per lookup (a region of thousands of rows says enough in its first ones). */
const MAX_CELLS = 500;

/** The lookups of a formula that miss, in one input workbook, at most one per lookup call. */
export async function lookupMisses(wb: WorkbookValues, formula: string, region: FormulaRegion): Promise<LookupMiss[]> {
  const misses: LookupMiss[] = [];
  for (const call of callsOf(formula)) {
    const lookup = exactLookupOf(call);
    if (!lookup) continue;
    const valueSheet = await sheetOf(wb, lookup.value, region.sheet);
    const lineSheet = await sheetOf(wb, lookup.line, region.sheet);
    if (!valueSheet || !lineSheet) continue;
    const miss = firstMiss(call, lookup, valueSheet, lineSheet, region);
    if (miss) misses.push(miss);
  }
  return misses;
}

export interface ExactLookup {
  value: FormulaReference;
  /** The one column or row searched. */
  line: FormulaReference;
  /** The range argument as written (VLOOKUP's whole table). */
  range: FormulaReference;
}

/**
 * MATCH(v, range, 0), XLOOKUP(v, range, …) without a match mode other than exact, VLOOKUP(v, table, n, FALSE|0) (its
 * first column): with a single cell as the value and one reference as the range; anything else is not judged.
 */
export function exactLookupOf(call: FormulaCall): ExactLookup | undefined {
  const [valueArg, rangeArg] = call.args;
  const exact =
    call.name === 'MATCH'
      ? call.args[2] === '0'
      : call.name === 'XLOOKUP'
        ? call.args[4] === undefined || call.args[4] === '0'
        : call.name === 'VLOOKUP' && /^(0|FALSE)$/i.test(call.args[3] ?? '');
  if (!exact || valueArg === undefined || rangeArg === undefined) return undefined;
  const value = onlyReferenceOf(valueArg);
  const range = onlyReferenceOf(rangeArg);
  if (!value || !range || value.rowStart !== value.rowEnd || value.colStart !== value.colEnd) return undefined;
  if (call.name === 'VLOOKUP') return { value, line: { ...range, colEnd: range.colStart }, range };
  const oneColumn = range.colStart === range.colEnd;
  const oneRow = range.rowStart === range.rowEnd;
  return oneColumn || oneRow ? { value, line: range, range } : undefined;
}

function firstMiss(
  call: FormulaCall,
  lookup: ExactLookup,
  valueSheet: SheetValues,
  lineSheet: SheetValues,
  region: FormulaRegion,
): LookupMiss | undefined {
  const first = {
    row: Number(region.first.replace(/^[A-Z]+/i, '')),
    col: columnIndex(region.first.replace(/\d+$/, '')),
  };
  let seen = 0;
  for (let dr = 0; dr < region.rows; dr++)
    for (let dc = 0; dc < region.columns; dc++) {
      if (++seen > MAX_CELLS) return undefined;
      const at = shifted(lookup.value, dr, dc);
      const value = valueSheet.get(at.rowStart, at.colStart);
      if (value === null || value === '') continue;
      const line = shifted(lookup.line, dr, dc);
      if (cellsOf(line).some(([r, c]) => same(lineSheet.get(r, c), value))) continue;
      const found = wholeLineOf(line, lineSheet).find(([r, c]) => same(lineSheet.get(r, c), value));
      const where = {
        cell: `${columnName(first.col + dc)}${first.row + dr}`,
        call: call.text,
        value: describeValue(value),
        valueAt: `${lookup.value.sheet === undefined ? '' : `${quoted(lookup.value.sheet)}!`}${columnName(at.colStart)}${at.rowStart}`,
        searched: cellRange(line),
        written: lookup.value.text,
      };
      if (found) return { ...where, foundAt: cellAt(line, found), ...widening(lookup, line, found) };
      // Not in the workbook's column at all: a miss the data makes, unless the text beside the value is there.
      const beside = textBeside(at, valueSheet, line, lineSheet);
      if (!beside) continue;
      const filled = region.rows * region.columns > 1;
      return {
        ...where,
        foundAt: cellAt(line, beside.foundAt),
        instead: insteadReference(lookup.value, beside.col, at.rowStart, filled),
      };
    }
  return undefined;
}

/** A cell of the range's sheet, as a reference ("Data!A1"). */
function cellAt(line: FormulaReference, [row, col]: [number, number]): string {
  return `${line.sheet === undefined ? '' : `${quoted(line.sheet)}!`}${columnName(col)}${row}`;
}

/** The range as cells ("Data!A2:A6"), without its anchors. */
function cellRange(line: FormulaReference): string {
  return `${cellAt(line, [line.rowStart, line.colStart])}:${columnName(line.colEnd)}${line.rowEnd}`;
}

/** Columns beside a looked-up cell where the value meant is often written (a label's value to its right). */
const BESIDE = [1, 2, -1];

/** Text in a cell beside the looked-up one (same row) that the searched range holds, and where it holds it. */
function textBeside(
  at: FormulaReference,
  valueSheet: SheetValues,
  line: FormulaReference,
  lineSheet: SheetValues,
): { col: number; foundAt: [number, number] } | undefined {
  for (const d of BESIDE) {
    const col = at.colStart + d;
    if (col < 1) continue;
    const text = valueSheet.get(at.rowStart, col);
    if (typeof text !== 'string' || !text.trim()) continue;
    const foundAt = cellsOf(line).find(([r, c]) => same(lineSheet.get(r, c), text));
    if (foundAt) return { col, foundAt };
  }
  return undefined;
}

/** The reference to look up instead: `$B$2` when the fill should read that one cell, else `B2`. */
function insteadReference(value: FormulaReference, col: number, row: number, filled: boolean): string {
  const sheet = value.sheet === undefined ? '' : `${quoted(value.sheet)}!`;
  return filled ? `${sheet}$${columnName(col)}$${row}` : `${sheet}${columnName(col)}${row}`;
}

/** A fixed column range (the fill does not move its rows) widened to the row where the missed value is. */
function widening(lookup: ExactLookup, line: FormulaReference, found: [number, number]): Pick<LookupMiss, 'widen'> {
  const { range } = lookup;
  const fixedRows = range.anchored.startRow && range.anchored.endRow;
  if (line.colStart !== line.colEnd || !fixedRows || found[1] !== line.colStart) return {};
  if (found[0] < range.rowStart || found[0] > range.rowEnd) return { widen: { range, row: found[0] } };
  return {};
}

function cellsOf(line: FormulaReference): [number, number][] {
  const out: [number, number][] = [];
  for (let r = line.rowStart; r <= line.rowEnd; r++)
    for (let c = line.colStart; c <= line.colEnd; c++) out.push([r, c]);
  return out;
}

/** The whole column (for a column range) or row (for a row range) the range lies in, as far as the sheet goes. */
function wholeLineOf(line: FormulaReference, sheet: SheetValues): [number, number][] {
  const out: [number, number][] = [];
  if (line.colStart === line.colEnd) for (let r = 1; r <= sheet.maxRow; r++) out.push([r, line.colStart]);
  else for (let c = 1; c <= sheet.maxColumn; c++) out.push([line.rowStart, c]);
  return out;
}

/** Excel's exact match: text ignoring case (and the spaces around it), anything else by value. */
export function same(a: CellValue, b: CellValue): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  return JSON.stringify(a) === JSON.stringify(b);
}

function quoted(sheet: string): string {
  return /^[A-Za-z_][\w.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
}
