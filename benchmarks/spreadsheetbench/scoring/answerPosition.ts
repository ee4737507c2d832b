/**
 * `answer_position` parsing as the official evaluator does it (compare_workbooks + parse_cell_range +
 * generate_cell_names + openpyxl `ws[name]`), and the `strict` mode with documented fixes.
 *
 * Official quirks kept in `official` mode: split on ',' without trimming; split on '!' must give exactly two parts;
 * leading/trailing `'` stripped; unqualified → the answer workbook's first sheet; letters → column by
 * `ord(c) - ord('A') + 1` (no upper-casing); column-major enumeration; reversed or column-less ranges enumerate nothing
 * (vacuous pass); `int('')` raises.
 */
import type { ScoringMode } from './types';
import { pyIntStrict, pyIsDigit } from '../../workbook/pyNumber';

export const MAX_ROW = 1_048_576;
/** openpyxl accepts up to three column letters (ZZZ). */
export const MAX_COLUMN = 18_278;

/** Fixes applied by `strict` mode, in the order they are applied. */
export const STRICT_FIXES = [
  'NBSP and other whitespace around pieces, sheet names and ranges is trimmed (covers spaces after commas)',
  'typographic quotes ‘ ’ are stripped like ASCII quotes around sheet names and ranges',
  "a double '!' keeps the first part as sheet and the last part as range",
  "a full-width colon '：' is read as ':'",
  'column letters are case-insensitive',
  'a range end without column letters reuses the start column (BD2:308 → BD2:BD308); reversed ranges are normalised',
  'whole-column ranges (A:G) cover rows 1..max used row of the answer and output sheets',
] as const;

export type RangeTarget =
  | { kind: 'cells'; colStart: number; colEnd: number; rowStart: number; rowEnd: number }
  /** Strict mode only: rows are bounded by the used range at compare time. */
  | { kind: 'columns'; colStart: number; colEnd: number }
  /** The official script raises an exception for this piece (the whole test case scores 0). */
  | { kind: 'error'; error: string; atSheetSplit?: boolean };

export interface AnswerPiece {
  raw: string;
  /** null = unqualified: the answer workbook's first sheet. */
  sheet: string | null;
  range: string;
  target: RangeTarget;
}

export interface ParsedAnswerPosition {
  text: string;
  mode: ScoringMode;
  pieces: AnswerPiece[];
}

function stripQuotes(s: string, quotes: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && quotes.includes(s[start])) start++;
  while (end > start && quotes.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

/** Python's col_name2num: no upper-casing, any character counts. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.codePointAt(0)! - 64);
  return n;
}

function splitCell(cell: string): { letters: string; digits: string } {
  let letters = '';
  let digits = '';
  for (const ch of cell) {
    if (pyIsDigit(ch)) digits += ch;
    else letters += ch;
  }
  return { letters, digits };
}

/** What `ws[name]` does for each enumerated name: raises for a column ≤ 0 or > ZZZ, row 0 or > 1048576. */
function checkCellsAddressable(t: Extract<RangeTarget, { kind: 'cells' }>): RangeTarget {
  if (t.colStart > t.colEnd || t.rowStart > t.rowEnd) return t;
  if (t.colStart <= 0)
    return {
      kind: 'error',
      error: "column number ≤ 0 gives a column-less cell name: 'tuple' object has no attribute 'value'",
    };
  if (t.colEnd > MAX_COLUMN) return { kind: 'error', error: 'column beyond ZZZ: not a valid coordinate' };
  if (t.rowStart < 1 || t.rowEnd > MAX_ROW)
    return { kind: 'error', error: 'Row numbers must be between 1 and 1048576' };
  return t;
}

/** openpyxl ABSOLUTE_RE without the ':' part; Python's \d matches any Unicode decimal digit. */
const SINGLE_TOKEN = /^\$?([A-Za-z]{1,3})?\$?(\p{Nd}+)?$/u;

/** openpyxl `ws[token]` for a token without ':' (the official script passes it through unchanged). */
function singleToken(token: string): RangeTarget {
  const m = SINGLE_TOKEN.exec(token);
  if (!m) return { kind: 'error', error: `${token} is not a valid coordinate or range` };
  const [, letters, digits] = m;
  if (!letters && !digits) return { kind: 'error', error: `${token} is not a valid coordinate or range` };
  if (!letters || !digits)
    return { kind: 'error', error: `${token} selects a whole row/column: 'tuple' object has no attribute 'value'` };
  const col = columnNumber(letters.toUpperCase());
  const row = pyIntStrict(digits);
  if (row < 1 || row > MAX_ROW)
    return { kind: 'error', error: `Row numbers must be between 1 and 1048576. Row number supplied was ${row}` };
  return { kind: 'cells', colStart: col, colEnd: col, rowStart: row, rowEnd: row };
}

function officialRange(range: string): RangeTarget {
  if (!range.includes(':')) return singleToken(range);
  const sides = range.split(':');
  if (sides.length !== 2)
    return { kind: 'error', error: `too many values to unpack splitting ${JSON.stringify(range)} on ':'` };
  try {
    const [a, b] = sides.map(splitCell);
    const rowStart = pyIntStrict(a.digits);
    const rowEnd = pyIntStrict(b.digits);
    return checkCellsAddressable({
      kind: 'cells',
      colStart: columnNumber(a.letters),
      colEnd: columnNumber(b.letters),
      rowStart,
      rowEnd,
    });
  } catch (err) {
    return { kind: 'error', error: (err as Error).message };
  }
}

function strictRange(range: string): RangeTarget {
  const text = range.replaceAll('：', ':').toUpperCase();
  if (!text.includes(':')) return singleToken(text);
  const sides = text.split(':');
  if (sides.length !== 2) return { kind: 'error', error: `range ${JSON.stringify(range)} has more than one ':'` };
  const [a, b] = sides.map(splitCell);
  if (!/^[A-Z]*$/.test(a.letters + b.letters))
    return {
      kind: 'error',
      error: `range ${JSON.stringify(range)} has characters other than column letters and digits`,
    };
  const colStart = columnNumber(a.letters);
  const colEnd = b.letters ? columnNumber(b.letters) : colStart;
  if (!a.digits && !b.digits && a.letters && b.letters) {
    return { kind: 'columns', colStart: Math.min(colStart, colEnd), colEnd: Math.max(colStart, colEnd) };
  }
  if (!a.digits || !b.digits || !a.letters)
    return { kind: 'error', error: `range ${JSON.stringify(range)} lacks a row or column` };
  const rowStart = Number(a.digits);
  const rowEnd = Number(b.digits);
  return checkCellsAddressable({
    kind: 'cells',
    colStart: Math.min(colStart, colEnd),
    colEnd: Math.max(colStart, colEnd),
    rowStart: Math.min(rowStart, rowEnd),
    rowEnd: Math.max(rowStart, rowEnd),
  });
}

function officialPiece(raw: string): AnswerPiece {
  if (!raw.includes('!'))
    return { raw, sheet: null, range: stripQuotes(raw, "'"), target: officialRange(stripQuotes(raw, "'")) };
  const parts = raw.split('!');
  if (parts.length !== 2) {
    return {
      raw,
      sheet: null,
      range: raw,
      target: {
        kind: 'error',
        error: `too many values to unpack splitting ${JSON.stringify(raw)} on '!'`,
        atSheetSplit: true,
      },
    };
  }
  const sheet = stripQuotes(parts[0], "'");
  const range = stripQuotes(parts[1], "'");
  return { raw, sheet, range, target: officialRange(range) };
}

const STRICT_QUOTES = "'‘’";

function strictPiece(raw: string): AnswerPiece {
  const text = raw.trim();
  if (!text.includes('!')) {
    const range = stripQuotes(text, STRICT_QUOTES).trim();
    return { raw, sheet: null, range, target: strictRange(range) };
  }
  const parts = text.split('!');
  const sheet = stripQuotes(parts[0].trim(), STRICT_QUOTES).trim();
  const range = stripQuotes(parts[parts.length - 1].trim(), STRICT_QUOTES).trim();
  return { raw, sheet, range, target: strictRange(range) };
}

export function parseAnswerPosition(text: string, mode: ScoringMode = 'official'): ParsedAnswerPosition {
  const pieces = text.split(',').map(mode === 'official' ? officialPiece : strictPiece);
  return { text, mode, pieces };
}

/** Number of cells a piece enumerates (0 = vacuous pass; undefined for errors and strict whole-column ranges). */
export function cellCount(target: RangeTarget): number | undefined {
  if (target.kind !== 'cells') return undefined;
  const cols = target.colEnd - target.colStart + 1;
  const rows = target.rowEnd - target.rowStart + 1;
  return cols > 0 && rows > 0 ? cols * rows : 0;
}

export type PositionCategory = 'ok' | 'vacuous' | 'error';

/** error: the official script raises (test case 0); vacuous: some piece enumerates no cell; ok otherwise. */
export function categorize(parsed: ParsedAnswerPosition): PositionCategory {
  if (parsed.pieces.some((p) => p.target.kind === 'error')) return 'error';
  if (parsed.pieces.some((p) => cellCount(p.target) === 0)) return 'vacuous';
  return 'ok';
}

/** Column-major cell enumeration (all rows of the first column, then the next column...). */
export function* cellsOf(target: {
  colStart: number;
  colEnd: number;
  rowStart: number;
  rowEnd: number;
}): Generator<[number, number]> {
  for (let c = target.colStart; c <= target.colEnd; c++) {
    for (let r = target.rowStart; r <= target.rowEnd; r++) yield [r, c];
  }
}

export function columnName(n: number): string {
  let name = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}
