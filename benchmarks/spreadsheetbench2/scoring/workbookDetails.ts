/**
 * What evaluation.py reads beyond cached values, straight from the OOXML parts as openpyxl exposes it: each cell's
 * formula (`load_workbook(data_only=False)`: "=" + text, array formulas as objects with `.text`, shared formulas
 * translated to the dependent cell, data-table formulas as objects without text) and its font colour (`cell.font.color`
 * through cellXfs → fonts; a cell absent from the sheet or hidden by a merge has font 0).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ZipArchive } from '../../../lib/xlsx/zipArchive';
import { attribute, attributesOf, decodeXmlText, elements } from '../../workbook/xmlScan';
import { WorkbookReadError } from '../../workbook/ooxmlReader';
import type { FontColour } from './fontColour';
import { translateFormula } from './sharedFormula';
import { parseCellName } from './cellNames';

/** openpyxl's ArrayFormula (compared by `.text`) and DataTableFormula (no `.text`). */
export type FormulaObject = { kind: 'arrayFormula'; text: string } | { kind: 'dataTableFormula' };
export type FormulaValue = string | FormulaObject;

export interface SheetDetails {
  kind: 'worksheet' | 'chartsheet';
  /** The formula of a cell, undefined when it holds none (or is hidden by a merge). */
  formula(row: number, column: number): FormulaValue | undefined;
  /** True when a merge hides the cell (openpyxl MergedCell: value None). */
  merged(row: number, column: number): boolean;
  fontColour(row: number, column: number): FontColour | null;
}

export interface WorkbookDetails {
  sheetnames: string[];
  sheet(name: string): SheetDetails;
}

const key = (row: number, column: number) => `${row},${column}`;

function parseColour(attrs: string): FontColour {
  const a = attributesOf(attrs);
  if (a.indexed !== undefined) return { type: 'indexed', indexed: Number(a.indexed) };
  if (a.theme !== undefined) return { type: 'theme', theme: Number(a.theme), tint: Number(a.tint ?? 0) };
  if (a.auto !== undefined) return { type: 'auto' };
  const rgb = a.rgb ?? '00000000';
  if (/^[0-9A-Fa-f]{8}$/.test(rgb)) return { type: 'rgb', rgb };
  if (/^[0-9A-Fa-f]{6}$/.test(rgb)) return { type: 'rgb', rgb: `00${rgb}` };
  throw new WorkbookReadError(`Colors must be aRGB hex values (font colour ${JSON.stringify(rgb)})`);
}

interface Fonts {
  /** Font colour of each font, in styles.xml order. */
  colours: (FontColour | null)[];
  /** fontId of each cellXfs entry. */
  xfFont: number[];
}

/** openpyxl's defaults when styles.xml is absent or has no cellXfs: one Calibri font in theme colour 1. */
const DEFAULT_FONTS: Fonts = { colours: [{ type: 'theme', theme: 1, tint: 0 }], xfFont: [0] };

function readFonts(xml: string | undefined): Fonts {
  if (!xml) return DEFAULT_FONTS;
  const cellXfs = [...elements(xml, 'cellXfs')][0]?.body ?? '';
  const xfFont = [...elements(cellXfs, 'xf')].map((xf) => Number(attribute(xf.attrs, 'fontId') ?? 0));
  if (!xfFont.length) return DEFAULT_FONTS;
  const fontsBody = [...elements(xml, 'fonts')][0]?.body ?? '';
  const colours = [...elements(fontsBody, 'font')].map((f) => {
    const colour = f.body === undefined ? undefined : [...elements(f.body, 'color')][0];
    return colour ? parseColour(colour.attrs) : null;
  });
  return { colours, xfFont };
}

function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromPart), target));
}

function relationships(zip: ZipArchive, part: string): { id: string; type: string; target: string }[] {
  const relsPart = path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);
  const xml = zip.text(relsPart) ?? '';
  return [...elements(xml, 'Relationship')].map((r) => {
    const a = attributesOf(r.attrs);
    return { id: a.Id ?? '', type: a.Type ?? '', target: resolveTarget(part, a.Target ?? '') };
  });
}

interface SharedMaster {
  text: string;
  row: number;
  column: number;
}

function formulaOf(attrs: string, body: string, at: [number, number], shared: Map<string, SharedMaster>) {
  const f = [...elements(body, 'f')][0];
  if (!f) return undefined;
  const text = '=' + (f.body === undefined ? '' : decodeXmlText(f.body));
  const type = attribute(f.attrs, 't');
  if (type === 'array') return { kind: 'arrayFormula', text } satisfies FormulaObject;
  if (type === 'dataTable') return { kind: 'dataTableFormula' } satisfies FormulaObject;
  if (type !== 'shared') return text;
  const si = attribute(f.attrs, 'si') ?? '';
  const master = shared.get(si);
  if (master) return translateFormula(master.text, at[0] - master.row, at[1] - master.column);
  if (text !== '=') shared.set(si, { text, row: at[0], column: at[1] });
  return text;
}

const ROW_OR_CELL =
  /<(?:[\w.-]+:)?(row)(\s[^>]*?)?\/?>|<(?:[\w.-]+:)?c(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?c>)/g;

function parseSheet(xml: string, fonts: Fonts): SheetDetails {
  const formulas = new Map<string, FormulaValue>();
  const styles = new Map<string, number>();
  const shared = new Map<string, SharedMaster>();
  const sheetData = /<(?:[\w.-]+:)?sheetData\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?sheetData>)/.exec(xml)?.[1] ?? '';
  let row = 0;
  let column = 0;
  for (const m of sheetData.matchAll(ROW_OR_CELL)) {
    if (m[1] !== undefined) {
      const r = attribute(m[2] ?? '', 'r');
      row = r !== undefined ? Number(r) : row + 1;
      column = 0;
      continue;
    }
    const attrs = m[3] ?? '';
    const ref = attribute(attrs, 'r');
    if (ref) [row, column] = parseCellName(ref);
    else column += 1;
    styles.set(key(row, column), Number(attribute(attrs, 's') ?? 0) || 0);
    const formula = m[4] === undefined ? undefined : formulaOf(attrs, m[4], [row, column], shared);
    if (formula !== undefined) formulas.set(key(row, column), formula);
  }
  const mergedCells = new Set<string>();
  for (const merge of elements(xml, 'mergeCell')) {
    const [start, end = start] = (attributesOf(merge.attrs).ref ?? '').split(':');
    if (!start) continue;
    const [r1, c1] = parseCellName(start);
    const [r2, c2] = parseCellName(end);
    for (let c = c1; c <= c2; c++) for (let r = r1; r <= r2; r++) if (r !== r1 || c !== c1) mergedCells.add(key(r, c));
  }
  const fontOf = (r: number, c: number): number => {
    const style = styles.get(key(r, c));
    if (style === undefined || mergedCells.has(key(r, c))) return 0;
    return fonts.xfFont[style] ?? 0;
  };
  return {
    kind: 'worksheet',
    formula: (r, c) => (mergedCells.has(key(r, c)) ? undefined : formulas.get(key(r, c))),
    merged: (r, c) => mergedCells.has(key(r, c)),
    fontColour: (r, c) => fonts.colours[fontOf(r, c)] ?? null,
  };
}

const CHARTSHEET: SheetDetails = {
  kind: 'chartsheet',
  formula: () => {
    throw new WorkbookReadError("'Chartsheet' object is not subscriptable");
  },
  merged: () => false,
  fontColour: () => null,
};

/** Opens an xlsx for its formulas and font colours; throws WorkbookReadError where openpyxl would fail to load. */
export async function openWorkbookDetails(file: string): Promise<WorkbookDetails> {
  let zip: ZipArchive;
  try {
    zip = new ZipArchive(await readFile(file));
  } catch (err) {
    throw new WorkbookReadError(`cannot open ${file}: ${(err as Error).message}`);
  }
  const docPart = relationships(zip, '').find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbookXml = zip.text(docPart);
  if (workbookXml === undefined) throw new WorkbookReadError('no workbook part (not an xlsx file)');
  const rels = relationships(zip, docPart);
  const stylesPart = rels.find((r) => r.type.endsWith('/styles'))?.target;
  const fonts = readFonts(stylesPart ? zip.text(stylesPart) : undefined);
  const sheets = [...elements(workbookXml, 'sheet')].flatMap((s) => {
    const a = attributesOf(s.attrs);
    const rid = a.id;
    const rel = rels.find((r) => r.id === rid);
    return rel && zip.has(rel.target) ? [{ name: a.name ?? '', rel }] : [];
  });
  const parsed = new Map<string, SheetDetails>();
  return {
    sheetnames: sheets.map((s) => s.name),
    sheet(name) {
      const entry = sheets.find((s) => s.name === name);
      if (!entry) throw new WorkbookReadError(`Worksheet ${name} does not exist.`);
      let details = parsed.get(name);
      if (!details) {
        details = entry.rel.type.includes('chartsheet')
          ? CHARTSHEET
          : parseSheet(zip.text(entry.rel.target) ?? '', fonts);
        parsed.set(name, details);
      }
      return details;
    },
  };
}
