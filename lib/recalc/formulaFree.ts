/**
 * Whether a workbook holds no formula at all, so recalculating it cannot change a value: its cached values are all
 * the values there are, and the recalculator copies it as it is instead of loading and storing it in LibreOffice
 * (a load and a store are nearly all of a recalculation's time). Conservative: anything unusual (not a zip, no
 * `xl/workbook.xml`, no worksheet part, a macro or dialog sheet, an unreadable part) answers false, and the
 * workbook goes through the engine as before, which reports its own errors.
 */
import { readFile } from 'node:fs/promises';
import { ZipArchive } from '../xlsx/zipArchive';

/** A cell formula element (`<f>`, `<f t="shared" .../>`, `<x:f>`), in any worksheet part. */
const FORMULA = /<(?:[\w.-]+:)?f[\s/>]/;
const WORKSHEET_PART = /^xl\/worksheets\/[^/]+\.xml$/;
const SHEETS_WITH_FORMULAS = /^xl\/(?:macrosheets|dialogsheets)\//;

export async function isFormulaFree(file: string): Promise<boolean> {
  try {
    const zip = new ZipArchive(await readFile(file));
    if (!zip.has('[Content_Types].xml') || !zip.has('xl/workbook.xml')) return false;
    let worksheets = 0;
    for (const name of zip.names()) {
      if (SHEETS_WITH_FORMULAS.test(name)) return false;
      if (!WORKSHEET_PART.test(name)) continue;
      const xml = zip.text(name);
      if (xml === undefined || FORMULA.test(xml)) return false;
      worksheets++;
    }
    return worksheets > 0;
  } catch {
    return false; // not a readable xlsx: the engine decides, and says why
  }
}
