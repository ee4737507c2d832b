/**
 * evaluation.py's answer-position handling: `parse_answer_position` (commas inside quoted sheet names kept),
 * `generate_cell_names` (column by column, its own letter arithmetic) and the `'Sheet'!range` split.
 */
import { WorkbookReadError } from '../../workbook/ooxmlReader';

/** Comma-separated pieces; a quote toggles "inside a sheet name", where commas do not split. */
export function splitAnswerPosition(answerPosition: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let inQuote = false;
  for (const ch of answerPosition) {
    if (ch === "'") inQuote = !inQuote;
    if (ch === ',' && !inQuote) {
      if (current.trim()) pieces.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}

/** Python `str.strip(chars)`. */
function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a])) a++;
  while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

/** Python `str.strip()` (whitespace). */
const PY_SPACE = /\s/;
const isPySpace = (ch: string) => PY_SPACE.test(ch) || (ch >= '\u001c' && ch <= '\u001f');

export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPySpace(s[a])) a++;
  while (b > a && isPySpace(s[b - 1])) b--;
  return s.slice(a, b);
}

/** One piece as `sheet_name, cell_range`: no '!' means the answer's first sheet; more than one '!' fails as in Python. */
export function splitPiece(piece: string, firstSheet: () => string): { sheet: string; range: string } {
  const parts = piece.split('!');
  if (parts.length > 2) throw new Error(`too many values to unpack (expected 2) in ${JSON.stringify(piece)}`);
  const [sheet, range] = parts.length === 2 ? parts : [firstSheet(), piece];
  return { sheet: pyStrip(stripChars(sheet, "'")), range: pyStrip(stripChars(range, "'")) };
}

function columnName(n: number): string {
  let name = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) name = String.fromCharCode(65 + ((x - 1) % 26)) + name;
  return name;
}

/** `col_name2num`: (code − 'A' + 1) per character, whatever the character. */
function columnNumber(name: string): number {
  let n = 0;
  for (const ch of name) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** Python `int(str)` for the row digits `parse_cell_range` collects. */
function rowNumber(digits: string, range: string): number {
  if (!/^\d+$/.test(digits))
    throw new Error(`invalid literal for int() with base 10: '${digits}' (answer range ${range})`);
  return Number(digits);
}

function splitCell(cell: string, range: string): [number, number] {
  let col = '';
  let row = '';
  for (const ch of cell) {
    if (/[0-9]/.test(ch)) row += ch;
    else col += ch;
  }
  return [columnNumber(col), rowNumber(row, range)];
}

/** `generate_cell_names`: a name without ':' as it is; a range column by column, top to bottom. */
export function generateCellNames(range: string): string[] {
  if (!range.includes(':')) return [range];
  const [start, end, ...rest] = range.split(':');
  if (rest.length) throw new Error(`too many values to unpack (expected 2) in range ${range}`);
  const [c1, r1] = splitCell(start, range);
  const [c2, r2] = splitCell(end, range);
  const names: string[] = [];
  for (let c = c1; c <= c2; c++) for (let r = r1; r <= r2; r++) names.push(`${columnName(c)}${r}`);
  return names;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d+)$/;

/** A cell name as `ws[name]` takes it: [row, column]; anything else fails as openpyxl does. */
export function parseCellName(name: string): [number, number] {
  const m = CELL.exec(name);
  if (!m) throw new WorkbookReadError(`Invalid cell coordinates (${name})`);
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + ch.charCodeAt(0) - 64;
  const row = Number(m[2]);
  if (row < 1 || col > 18278) throw new WorkbookReadError(`Invalid cell coordinates (${name})`);
  return [row, col];
}
