/**
 * One worksheet's cells as openpyxl `load_workbook(data_only=True)` reads them: cached values with openpyxl's number,
 * boolean, date and string casts, date/time/timedelta inferred from the cell's number format, merged cells blanked
 * except their top-left cell, and which cells hold a formula without a cached value.
 */
import type { CellValue, PyDate, PyDateTime, PyTime } from './cellValue';
import { fromExcel, type DateEpoch } from './excelDates';
import { pyFloat, pyIntAsFloat } from './pyNumber';
import { WorkbookReadError } from './ooxmlPackage';
import type { Styles } from './workbookStyles';
import type { SheetValues } from './sheetValues';
import { attribute, attributesOf, elements, richTextContent, valueText } from './xmlScan';

/** Sparse rows of dense column arrays: Map keys beyond 2^31 are heap numbers and hash slowly. */
class CellGrid<T> {
  private readonly rows: (T | undefined)[][] = [];

  set(row: number, col: number, value: T | undefined): void {
    if (value === undefined && !this.rows[row]) return;
    (this.rows[row] ??= [])[col] = value;
  }

  get(row: number, col: number): T | undefined {
    return this.rows[row]?.[col];
  }
}
/** openpyxl `_cast_number`: float when the text has '.', 'e' or 'E', else int. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function castNumber(raw: string): number {
  if (PLAIN_NUMBER.test(raw)) return Number(raw);
  const value = /[.eE]/.test(raw) ? pyFloat(raw) : pyIntAsFloat(raw);
  if (value === undefined) throw new WorkbookReadError(`cell value ${JSON.stringify(raw)} is not a number`);
  return value;
}

const ISO_RE = /^(?:(\d{4})-(\d{2})-(\d{2}))?T?(?:(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?)?Z?/;

/** openpyxl from_ISO8601 for `t="d"` cells (durations are not supported here and read as errors). */
function fromIso8601(raw: string): CellValue {
  const m = ISO_RE.exec(raw);
  if (!m || !m.slice(1).some(Boolean)) throw new WorkbookReadError(`Invalid datetime value ${raw}`);
  const [, y, mo, d, h, mi, s, frac] = m;
  const time = {
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    microsecond: frac ? Math.trunc(Number(frac) * 1_000_000) : 0,
  };
  if (!y) return { kind: 'time', ...time } satisfies PyTime;
  if (!h) return { kind: 'date', year: Number(y), month: Number(mo), day: Number(d) } satisfies PyDate;
  return { kind: 'datetime', year: Number(y), month: Number(mo), day: Number(d), ...time } satisfies PyDateTime;
}

export interface CellContext {
  sharedStrings: string[];
  styles: Styles;
  epoch: DateEpoch;
}

function sharedString(ctx: CellContext, raw: string): string {
  let index = Number(raw);
  if (!Number.isInteger(index)) throw new WorkbookReadError(`shared string index ${raw} is not an integer`);
  if (index < 0) index += ctx.sharedStrings.length;
  const s = ctx.sharedStrings[index];
  if (s === undefined) throw new WorkbookReadError(`shared string index ${raw} out of range`);
  return s;
}

/** openpyxl WorkSheetParser.parse_cell with data_only=True. */
function cellValue(attrs: string, body: string | undefined, ctx: CellContext): CellValue {
  const type = attribute(attrs, 't') ?? 'n';
  const styleId = Number(attribute(attrs, 's') ?? 0) || 0;
  if (type === 'inlineStr') {
    const inline = body === undefined ? undefined : [...elements(body, 'is')][0];
    return inline === undefined ? null : richTextContent(inline.body);
  }
  const raw = valueText(body);
  if (raw === undefined || raw === '') return null;
  switch (type) {
    case 'n': {
      const n = castNumber(raw);
      if (!ctx.styles.dateStyles.has(styleId)) return n;
      return fromExcel(n, ctx.epoch, ctx.styles.timedeltaStyles.has(styleId));
    }
    case 's':
      return sharedString(ctx, raw);
    case 'b': {
      const n = pyIntAsFloat(raw);
      if (n === undefined) throw new WorkbookReadError(`boolean cell value ${JSON.stringify(raw)} is not an int`);
      return n !== 0;
    }
    case 'd':
      return fromIso8601(raw);
    default:
      return raw;
  }
}

const CELL_REF = /^\$?([A-Za-z]{1,3})\$?(\d+)$/;

export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

function parseCellRef(ref: string): [number, number] {
  let col = 0;
  let i = 0;
  for (; i < ref.length && i < 3; i++) {
    const code = ref.charCodeAt(i);
    if (code >= 65 && code <= 90) col = col * 26 + code - 64;
    else break;
  }
  if (col > 0 && i < ref.length) {
    let row = 0;
    let j = i;
    for (; j < ref.length; j++) {
      const code = ref.charCodeAt(j);
      if (code < 48 || code > 57) break;
      row = row * 10 + code - 48;
    }
    if (j === ref.length && j > i) return [row, col];
  }
  const m = CELL_REF.exec(ref);
  if (!m) throw new WorkbookReadError(`Invalid cell coordinates (${ref})`);
  return [Number(m[2]), columnIndex(m[1])];
}

const SHEET_DATA = /<(?:[\w.-]+:)?sheetData\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?sheetData>)/;
const FORMULA = /<(?:[\w.-]+:)?f[\s/>]/;
/** A row start tag (group 1 = "row", group 2 = attributes) or a whole cell element (groups 3 = attributes, 4 = body). */
const ROW_OR_CELL =
  /<(?:[\w.-]+:)?(row)(\s[^>]*?)?\/?>|<(?:[\w.-]+:)?c(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?c>)/g;

export function parseWorksheet(xml: string, ctx: CellContext): SheetValues {
  const cells = new CellGrid<CellValue>();
  const styleIds = new CellGrid<number>();
  const uncached = new CellGrid<true>();
  let rowCounter = 0;
  let maxRow = 1;
  let maxColumn = 1;
  const sheetData = SHEET_DATA.exec(xml)?.[1] ?? '';
  let colCounter = 0;
  ROW_OR_CELL.lastIndex = 0;
  for (let m = ROW_OR_CELL.exec(sheetData); m !== null; m = ROW_OR_CELL.exec(sheetData)) {
    if (m[1] !== undefined) {
      const rowRef = attribute(m[2] ?? '', 'r');
      rowCounter = rowRef !== undefined ? Number(rowRef) : rowCounter + 1;
      colCounter = 0;
      continue;
    }
    const attrs = m[3] ?? '';
    const body = m[4];
    const ref = attribute(attrs, 'r');
    let r = rowCounter;
    if (ref) [r, colCounter] = parseCellRef(ref);
    else colCounter += 1;
    const value = cellValue(attrs, body, ctx);
    cells.set(r, colCounter, value);
    const styleId = attribute(attrs, 's');
    if (styleId !== undefined && styleId !== '0') styleIds.set(r, colCounter, Number(styleId));
    // t="str" marks a calculated text result: an empty one (IFERROR(…,"") as LibreOffice and Excel write it) is a
    // value, not a formula left uncalculated (openpyxl writes formulas without a type).
    if (value === null && body !== undefined && FORMULA.test(body) && attribute(attrs, 't') !== 'str')
      uncached.set(r, colCounter, true);
    if (r > maxRow) maxRow = r;
    if (colCounter > maxColumn) maxColumn = colCounter;
  }
  for (const merge of elements(xml, 'mergeCell')) blankMergedRange(cells, attributesOf(merge.attrs).ref ?? '');
  return {
    kind: 'worksheet',
    get: (r, c) => cells.get(r, c) ?? null,
    isUncachedFormula: (r, c) => uncached.get(r, c) === true,
    numberFormat: (r, c) => ctx.styles.displayFormats[styleIds.get(r, c) ?? 0] ?? 'General',
    maxRow,
    maxColumn,
  };
}

/** openpyxl `_clean_merge_range`: every cell but the top-left becomes a MergedCell whose value is None. */
function blankMergedRange(cells: CellGrid<CellValue>, ref: string): void {
  const [start, end = start] = ref.split(':');
  if (!start) return;
  const [r1, c1] = parseCellRef(start);
  const [r2, c2] = parseCellRef(end);
  for (let c = c1; c <= c2; c++) {
    for (let r = r1; r <= r2; r++) {
      if (r !== r1 || c !== c1) cells.set(r, c, undefined);
    }
  }
}
