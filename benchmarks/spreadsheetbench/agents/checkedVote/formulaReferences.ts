import { columnIndex, openWorkbookValues, type SheetValues, type WorkbookValues } from '../../../workbook/ooxmlReader';

/** One cell or range a formula reads, as written ("$A4", "Data!$G$2:$G$9"), with its sheet (undefined: the formula's). */
export interface FormulaReference {
  text: string;
  sheet?: string;
  rowStart: number;
  rowEnd: number;
  colStart: number;
  colEnd: number;
  /** Which parts carry a `$` (stay put when the formula is filled): start and end cell, column and row. */
  anchored: { startColumn: boolean; startRow: boolean; endColumn: boolean; endRow: boolean };
}

/** Cells of one range looked at: a long range that is empty at its start is still reported as empty. */
const MAX_CELLS_PER_REFERENCE = 5_000;
/** References named in the feedback. */
const MAX_NAMED = 4;

const CELL = String.raw`(\$?)([A-Za-z]{1,3})(\$?)(\d+)`;
/** A sheet-qualified or bare cell/range reference; a name followed by "(" is a function (LOG10), not a cell. */
const REFERENCE = new RegExp(
  String.raw`(?:'((?:[^']|'')+)'|([A-Za-z_][\w.]*))?(!)?${CELL}(?::${CELL})?(?![\w(!])`,
  'g',
);

/**
 * The cell and range references of a formula, outside its "text" literals. Whole-column and whole-row references
 * (A:A, 2:2) and defined names are left out: they cannot be checked cheaply or are not cells.
 */
export function referencesOf(formula: string): FormulaReference[] {
  const code = formula.replace(/"(?:[^"]|"")*"/g, (s) => ' '.repeat(s.length));
  const out: FormulaReference[] = [];
  for (const m of code.matchAll(REFERENCE)) {
    const [text, quoted, bare, bang, a1, c1, b1, r1, a2, c2, b2, r2] = m;
    const before = code[(m.index ?? 0) - 1];
    if (before !== undefined && /[\w.$:]/.test(before)) continue; // inside a longer token
    if (!bang && bare !== undefined) continue; // "SUM1" is a name, not a sheet-less reference: a bare sheet needs "!"
    const sheet = quoted !== undefined ? quoted.replace(/''/g, "'") : bang ? bare : undefined;
    const cols = [columnIndex(c1.toUpperCase()), columnIndex((c2 ?? c1).toUpperCase())];
    const rows = [Number(r1), Number(r2 ?? r1)];
    out.push({
      text,
      sheet,
      rowStart: Math.min(...rows),
      rowEnd: Math.max(...rows),
      colStart: Math.min(...cols),
      colEnd: Math.max(...cols),
      anchored: {
        startColumn: a1 === '$',
        startRow: b1 === '$',
        endColumn: (c2 === undefined ? a1 : a2) === '$',
        endRow: (r2 === undefined ? b1 : b2) === '$',
      },
    });
  }
  return out;
}

/** The one reference an argument is, written as nothing else ("$B4", "Data!$A$1:$A$9"); undefined for anything more. */
export function onlyReferenceOf(arg: string): FormulaReference | undefined {
  const refs = referencesOf(arg);
  return refs.length === 1 && refs[0].text === arg.trim() ? refs[0] : undefined;
}

/** What a formula's references get wrong in one input: ranges all empty, and ranges that stop short of their column's data. */
export interface ReferenceNotes {
  empty: string[];
  /** "Data!$A$2:$A$3 stops at row 3; column A has data down to row 40". */
  cutShort: string[];
}

/** Rows of data below a range's end, in every one of its columns, before it counts as stopping short. */
const CUT_SHORT_ROWS = 2;

/**
 * The references of a formula whose cells are all empty in a workbook (the formula's own sheet for unqualified ones),
 * as written. The 1.5B copies a forum user's formula whose cells are not where this workbook has its data
 * (checked-vote-v5, 57105: `$A4` for the month, empty here; the months are in column B): naming the empty cells points
 * the repair at the mismatch. A reference to a sheet the workbook lacks is left to the #REF!/#NAME? feedback.
 */
export async function referenceNotes(
  file: string,
  formula: string,
  formulaSheet: string | null,
): Promise<ReferenceNotes> {
  const wb = await openWorkbookValues(file);
  const empty: string[] = [];
  const cutShort: string[] = [];
  for (const ref of referencesOf(formula)) {
    if (empty.includes(ref.text)) continue;
    const sheet = await sheetOf(wb, ref, formulaSheet);
    if (!sheet) continue;
    const blank = blankIn(sheet);
    if (isEmpty(ref, blank)) empty.push(ref.text);
    else if (ref.rowEnd > ref.rowStart) {
      const last = dataEnd(ref, blank, sheet.maxRow);
      if (last - ref.rowEnd >= CUT_SHORT_ROWS)
        cutShort.push(`${ref.text} stops at row ${ref.rowEnd}, but its column has data down to row ${last}`);
    }
  }
  return { empty: named(empty), cutShort: named(cutShort) };
}

/** The last row of the run of non-empty cells that goes on right below the range, in all of its columns. */
function dataEnd(ref: FormulaReference, blank: (row: number, col: number) => boolean, maxRow: number): number {
  let row = ref.rowEnd;
  const filled = (r: number) => {
    for (let col = ref.colStart; col <= ref.colEnd; col++) if (blank(r, col)) return false;
    return true;
  };
  while (row < maxRow && filled(row + 1)) row++;
  return row;
}

function named(items: string[]): string[] {
  return items.length > MAX_NAMED ? [...items.slice(0, MAX_NAMED), `${items.length - MAX_NAMED} more`] : items;
}

/** The sheet a reference reads (its own, else the formula's, else the first), matched as Excel does, ignoring case. */
export async function sheetOf(
  wb: WorkbookValues,
  ref: Pick<FormulaReference, 'sheet'>,
  formulaSheet: string | null,
): Promise<SheetValues | undefined> {
  const name = sheetNameOf(wb, ref, formulaSheet);
  return name === undefined ? undefined : wb.sheet(name);
}

/** The workbook's name of the sheet a reference reads; undefined when the workbook has no such sheet. */
export function sheetNameOf(
  wb: WorkbookValues,
  ref: Pick<FormulaReference, 'sheet'>,
  formulaSheet: string | null,
): string | undefined {
  const name = ref.sheet ?? formulaSheet ?? wb.sheetnames[0];
  return wb.sheetnames.find((s) => s.toLowerCase() === name.toLowerCase());
}

/** Whether a cell of a sheet holds nothing (None or ""). */
export function blankIn(sheet: SheetValues): (row: number, col: number) => boolean {
  return (row, col) => sheet.get(row, col) === null || sheet.get(row, col) === '';
}

export function isEmpty(ref: FormulaReference, blank: (row: number, col: number) => boolean): boolean {
  let seen = 0;
  for (let row = ref.rowStart; row <= ref.rowEnd; row++)
    for (let col = ref.colStart; col <= ref.colEnd; col++) {
      if (!blank(row, col)) return false;
      if (++seen >= MAX_CELLS_PER_REFERENCE) return true;
    }
  return true;
}
