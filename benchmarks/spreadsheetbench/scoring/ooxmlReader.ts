/**
 * Reads cached cell values straight from the OOXML parts, the way openpyxl `load_workbook(data_only=True)` exposes them
 * to the official evaluator: sheet order from workbook.xml, shared strings (rich text flattened, `x005F_` removed),
 * inline strings, number formats for date/time/timedelta inference, merged cells blanked except their top-left cell.
 * Sheets are parsed lazily: only the sheets an answer position names are ever read.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { CellValue, PyDate, PyDateTime, PyTime } from './cellValue';
import {
  displayFormatFor,
  fromExcel,
  formatCodeFor,
  isDateFormat,
  isTimedeltaFormat,
  type DateEpoch,
} from './excelDates';
import { pyFloat, pyIntAsFloat } from './pyNumber';
import { ZipArchive } from './zipArchive';
import { attribute, attributesOf, elements, richTextContent, valueText } from './xmlScan';

export class WorkbookReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkbookReadError';
  }
}

/** Rows × columns of one worksheet; a missing cell reads None. */
export interface SheetValues {
  kind: 'worksheet' | 'chartsheet';
  get(row: number, column: number): CellValue;
  /** Highest row / column holding a cell element (openpyxl max_row / max_column, min 1). */
  maxRow: number;
  maxColumn: number;
  /** True when the cell holds a formula without a cached value (openpyxl data_only reads it as None). */
  isUncachedFormula(row: number, column: number): boolean;
  /** The number format code the cell is shown with (`General` when it has none). */
  numberFormat(row: number, column: number): string;
}

export interface WorkbookValues {
  /** openpyxl `wb.sheetnames`: worksheets and chartsheets in workbook.xml order. */
  sheetnames: string[];
  sheet(name: string): Promise<SheetValues>;
}

const ARRAY_PATHS = new Set([
  'workbook.sheets.sheet',
  'Relationships.Relationship',
  'styleSheet.numFmts.numFmt',
  'styleSheet.cellXfs.xf',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (_name, jpath) => ARRAY_PATHS.has(String(jpath)),
});

type XmlNode = Record<string, unknown>;

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
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

function asArray(x: unknown): XmlNode[] {
  return Array.isArray(x) ? (x as XmlNode[]) : x === undefined ? [] : [x as XmlNode];
}

function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromPart), target));
}

function relsPathOf(part: string): string {
  return path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

class OoxmlPackage {
  constructor(private readonly zip: ZipArchive) {}

  has(part: string): boolean {
    return this.zip.has(part);
  }

  async text(part: string): Promise<string | undefined> {
    return this.zip.text(part);
  }

  async xml(part: string): Promise<XmlNode | undefined> {
    const text = await this.text(part);
    return text === undefined ? undefined : (parser.parse(text) as XmlNode);
  }

  async rels(part: string): Promise<Relationship[]> {
    const doc = await this.xml(relsPathOf(part));
    const list = asArray((doc?.Relationships as XmlNode | undefined)?.Relationship);
    return list.map((r) => ({
      id: String(r['@_Id'] ?? ''),
      type: String(r['@_Type'] ?? ''),
      target: r['@_TargetMode'] === 'External' ? '' : resolveTarget(part, String(r['@_Target'] ?? '')),
    }));
  }
}

interface Styles {
  dateStyles: Set<number>;
  timedeltaStyles: Set<number>;
  displayFormats: string[];
}

async function readStyles(pkg: OoxmlPackage, part: string | undefined): Promise<Styles> {
  const styles: Styles = { dateStyles: new Set(), timedeltaStyles: new Set(), displayFormats: [] };
  const doc = part ? await pkg.xml(part) : undefined;
  const sheet = doc?.styleSheet as XmlNode | undefined;
  if (!sheet) return styles;
  const custom = new Map<number, string>();
  for (const f of asArray((sheet.numFmts as XmlNode | undefined)?.numFmt)) {
    custom.set(Number(f['@_numFmtId']), String(f['@_formatCode'] ?? ''));
  }
  asArray((sheet.cellXfs as XmlNode | undefined)?.xf).forEach((xf, index) => {
    const code = formatCodeFor(Number(xf['@_numFmtId'] ?? 0), custom);
    if (isDateFormat(code)) styles.dateStyles.add(index);
    styles.displayFormats[index] = displayFormatFor(Number(xf['@_numFmtId'] ?? 0), custom);
    if (isTimedeltaFormat(code)) styles.timedeltaStyles.add(index);
  });
  return styles;
}

async function readSharedStrings(pkg: OoxmlPackage, part: string | undefined): Promise<string[]> {
  const text = part ? await pkg.text(part) : undefined;
  if (text === undefined) return [];
  return [...elements(text, 'si')].map((si) => richTextContent(si.body).replaceAll('x005F_', ''));
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

interface CellContext {
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

function parseWorksheet(xml: string, ctx: CellContext): SheetValues {
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
    if (value === null && body !== undefined && FORMULA.test(body)) uncached.set(r, colCounter, true);
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

const CHARTSHEET: SheetValues = {
  kind: 'chartsheet',
  get: () => {
    throw new WorkbookReadError("'Chartsheet' object is not subscriptable");
  },
  isUncachedFormula: () => false,
  numberFormat: () => 'General',
  maxRow: 1,
  maxColumn: 1,
};

async function openPackage(file: string): Promise<OoxmlPackage> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new WorkbookReadError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  if (bytes.subarray(0, 8).equals(CFB_MAGIC)) {
    throw new WorkbookReadError(
      'File is not a zip file (OLE2/CFB container: a password-protected workbook or a legacy .xls)',
    );
  }
  try {
    return new OoxmlPackage(new ZipArchive(bytes));
  } catch (err) {
    throw new WorkbookReadError(`File is not a zip file (${(err as Error).message})`);
  }
}

async function officeDocumentPart(pkg: OoxmlPackage): Promise<string> {
  const rels = await pkg.rels('');
  const doc = rels.find((r) => r.type.endsWith('/officeDocument'));
  const part = doc?.target ?? 'xl/workbook.xml';
  if (!pkg.has(part)) throw new WorkbookReadError('no workbook part (not an xlsx file)');
  return part;
}

/** Opens an xlsx and returns lazily parsed cached values; throws WorkbookReadError where openpyxl would fail to load. */
export async function openWorkbookValues(file: string): Promise<WorkbookValues> {
  const pkg = await openPackage(file);
  const workbookPart = await officeDocumentPart(pkg);
  const workbook = (await pkg.xml(workbookPart))?.workbook as XmlNode | undefined;
  if (!workbook) throw new WorkbookReadError(`${workbookPart} has no <workbook> element`);
  const rels = await pkg.rels(workbookPart);
  const relOfType = (suffix: string) => rels.find((r) => r.type.endsWith(suffix))?.target;
  const date1904 = String((workbook.workbookPr as XmlNode | undefined)?.['@_date1904'] ?? '').toLowerCase();
  const ctx: CellContext = {
    sharedStrings: await readSharedStrings(pkg, relOfType('/sharedStrings')),
    styles: await readStyles(pkg, relOfType('/styles')),
    epoch: date1904 === '1' || date1904 === 'true' ? 'mac1904' : 'windows',
  };
  const entries: { name: string; rel: Relationship }[] = [];
  for (const sheet of asArray((workbook.sheets as XmlNode | undefined)?.sheet)) {
    const rel = rels.find((r) => r.id === String(sheet['@_id'] ?? ''));
    if (rel && pkg.has(rel.target)) entries.push({ name: String(sheet['@_name'] ?? ''), rel });
  }
  const parsed = new Map<string, Promise<SheetValues>>();
  const load = async (rel: Relationship): Promise<SheetValues> =>
    rel.type.includes('chartsheet') ? CHARTSHEET : parseWorksheet((await pkg.text(rel.target)) ?? '', ctx);
  return {
    sheetnames: entries.map((e) => e.name),
    sheet(name) {
      const entry = entries.find((e) => e.name === name);
      if (!entry) return Promise.reject(new WorkbookReadError(`Worksheet ${name} does not exist.`));
      if (!parsed.has(name)) parsed.set(name, load(entry.rel));
      return parsed.get(name)!;
    },
  };
}
