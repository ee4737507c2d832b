import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readFile } from 'node:fs/promises';

/** Writes a one-sheet workbook: plain values plus formulas, a formula with a `result` gets that cached value. */
export async function writeWorkbook(file: string, cells: Record<string, ExcelJS.CellValue>): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Data');
  for (const [address, value] of Object.entries(cells)) ws.getCell(address).value = value;
  await wb.xlsx.writeFile(file);
}

export function formula(text: string, cachedResult?: number | string): ExcelJS.CellValue {
  return cachedResult === undefined ? { formula: text } : { formula: text, result: cachedResult };
}

/** The cached value of each formula cell of the first sheet, as exceljs reads it (undefined when none is stored). */
export async function cachedResults(file: string, addresses: string[]): Promise<Record<string, unknown>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const out: Record<string, unknown> = {};
  for (const address of addresses) {
    const value = ws.getCell(address).value as { formula?: string; sharedFormula?: string; result?: unknown } | null;
    if (!value || typeof value !== 'object' || !('formula' in value || 'sharedFormula' in value)) {
      throw new Error(`${file} ${address} holds no formula any more: ${JSON.stringify(value)}`);
    }
    out[address] = value.result;
  }
  return out;
}

/** Raw `<c>` element of a cell in the first sheet's XML (to check what is really stored). */
export async function rawCellXml(file: string, address: string): Promise<string | undefined> {
  const zip = await JSZip.loadAsync(await readFile(file));
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  return new RegExp(`<c r="${address}"[^>]*?(?:/>|>.*?</c>)`).exec(xml)?.[0];
}
