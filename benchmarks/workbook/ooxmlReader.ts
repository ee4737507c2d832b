/**
 * Reads cached cell values straight from the OOXML parts, the way openpyxl `load_workbook(data_only=True)` exposes them
 * to the official evaluator: sheet order from workbook.xml, shared strings (rich text flattened, `x005F_` removed),
 * inline strings, number formats for date/time/timedelta inference, merged cells blanked except their top-left cell.
 * Sheets are parsed lazily: only the sheets an answer position names are ever read.
 *
 * The parts: ooxmlPackage.ts (zip, relationships), workbookStyles.ts (number formats), worksheetCells.ts (cells).
 */
import type { DateEpoch } from './excelDates';
import { openPackage, WorkbookReadError, type OoxmlPackage, type Relationship } from './ooxmlPackage';
import { parseStyles } from './workbookStyles';
import { parseWorksheet, type CellContext } from './worksheetCells';
import type { SheetValues, WorkbookValues } from './sheetValues';
import { attributesOf, elements, richTextContent } from './xmlScan';

export { WorkbookReadError } from './ooxmlPackage';
export { columnIndex } from './worksheetCells';
export type { SheetValues, WorkbookValues } from './sheetValues';

function readSharedStrings(pkg: OoxmlPackage, part: string | undefined): string[] {
  const text = part ? pkg.text(part) : undefined;
  if (text === undefined) return [];
  return [...elements(text, 'si')].map((si) => richTextContent(si.body).replaceAll('x005F_', ''));
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

const WORKBOOK_ELEMENT = /<(?:[\w.-]+:)?workbook[\s/>]/;

interface SheetEntry {
  name: string;
  rel: Relationship;
}

/** workbook.xml: the date epoch, the sheets (name → relationship id) in order, and the defined names. */
function parseWorkbookPart(
  xml: string,
  part: string,
): { epoch: DateEpoch; sheets: Record<string, string>[]; definedNames: string[] } {
  if (!WORKBOOK_ELEMENT.test(xml)) throw new WorkbookReadError(`${part} has no <workbook> element`);
  let date1904 = '';
  for (const pr of elements(xml, 'workbookPr')) {
    date1904 = (attributesOf(pr.attrs).date1904 ?? '').toLowerCase();
    break;
  }
  let sheetsBody = '';
  for (const sheets of elements(xml, 'sheets')) {
    sheetsBody = sheets.body ?? '';
    break;
  }
  const names = [...elements(xml, 'definedName')].map((d) => attributesOf(d.attrs).name ?? '');
  return {
    epoch: date1904 === '1' || date1904 === 'true' ? 'mac1904' : 'windows',
    sheets: [...elements(sheetsBody, 'sheet')].map((s) => attributesOf(s.attrs)),
    definedNames: [...new Set(names.filter(Boolean))],
  };
}

/** Opens an xlsx and returns lazily parsed cached values; throws WorkbookReadError where openpyxl would fail to load. */
export async function openWorkbookValues(file: string): Promise<WorkbookValues> {
  const pkg = openPackage(file);
  const workbookPart = pkg.officeDocumentPart();
  const workbook = parseWorkbookPart(pkg.text(workbookPart) ?? '', workbookPart);
  const rels = pkg.rels(workbookPart);
  const relOfType = (suffix: string) => rels.find((r) => r.type.endsWith(suffix))?.target;
  const styles = relOfType('/styles');
  const ctx: CellContext = {
    sharedStrings: readSharedStrings(pkg, relOfType('/sharedStrings')),
    styles: parseStyles(styles ? pkg.text(styles) : undefined),
    epoch: workbook.epoch,
  };
  const entries: SheetEntry[] = [];
  for (const sheet of workbook.sheets) {
    const rel = rels.find((r) => r.id === (sheet.id ?? ''));
    if (rel && pkg.has(rel.target)) entries.push({ name: sheet.name ?? '', rel });
  }
  const parsed = new Map<string, Promise<SheetValues>>();
  const load = async (rel: Relationship): Promise<SheetValues> =>
    rel.type.includes('chartsheet') ? CHARTSHEET : parseWorksheet(pkg.text(rel.target) ?? '', ctx);
  return {
    sheetnames: entries.map((e) => e.name),
    definedNames: workbook.definedNames,
    sheet(name) {
      const entry = entries.find((e) => e.name === name);
      if (!entry) return Promise.reject(new WorkbookReadError(`Worksheet ${name} does not exist.`));
      if (!parsed.has(name)) parsed.set(name, load(entry.rel));
      return parsed.get(name)!;
    },
  };
}
