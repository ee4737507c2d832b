import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import type { CellValue } from '../../benchmarks/workbook/cellValue';
import { writeWorkbook, formula, rawCellXml } from './workbooks';

// Real LibreOffice. The default recalculator writes each formula's result into a copy of the input
// (lib/recalc/cached_values.py); the other always has LibreOffice store the workbook: the reference for every value.

let dir: string;
let results: LibreOfficeRecalculator;
let stored: LibreOfficeRecalculator;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'recalc-results-'));
  results = LibreOfficeRecalculator.create();
  stored = LibreOfficeRecalculator.create({ writeResults: false });
});

afterAll(async () => {
  await Promise.all([results?.close(), stored?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);

/** Every cell of every sheet as the scorer's reader sees it (openpyxl's types: dates from number formats). */
async function allValues(workbook: string): Promise<Record<string, CellValue>> {
  const book = await openWorkbookValues(workbook);
  const out: Record<string, CellValue> = {};
  for (const name of book.sheetnames) {
    const sheet = await book.sheet(name);
    for (let row = 1; row <= sheet.maxRow; row++)
      for (let col = 1; col <= sheet.maxColumn; col++) out[`${name}!R${row}C${col}`] = sheet.get(row, col);
  }
  return out;
}

async function zipEntries(workbook: string): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(await readFile(workbook));
  const out = new Map<string, Buffer>();
  for (const [name, entry] of Object.entries(zip.files)) if (!entry.dir) out.set(name, await entry.async('nodebuffer'));
  return out;
}

describe('LibreOffice results written into a copy of the input', () => {
  it('gives the values LibreOffice stores (numbers, text, booleans, errors, dates) and leaves every other part as it was', async () => {
    await writeWorkbook(file('types.xlsx'), {
      A1: 5,
      A2: 'x',
      A3: new Date(Date.UTC(2021, 2, 4)),
      B1: formula('A1/4'),
      B2: formula('A2&"y"'),
      B3: formula('A1>1'),
      B4: formula('1/0'),
      B5: formula('NA()'),
      B6: formula('0.1+0.2'),
      B7: formula('""'),
      B8: formula('SQRT(-1)'),
      B9: formula('SUM(A1:A2)*1E+20'),
    });
    const a = await results.recalc(file('types.xlsx'), file('types-results.xlsx'));
    const b = await stored.recalc(file('types.xlsx'), file('types-stored.xlsx'));
    expect(a).toMatchObject({ ok: true, written: 'results' });
    expect(b).toMatchObject({ ok: true, written: 'store', storedBecause: 'asked to store' });

    expect(await allValues(file('types-results.xlsx'))).toEqual(await allValues(file('types-stored.xlsx')));
    expect(await rawCellXml(file('types-results.xlsx'), 'B3')).toContain('t="b"');
    expect(await rawCellXml(file('types-results.xlsx'), 'B4')).toContain('<v>#DIV/0!</v>');
    // 15 significant digits, as LibreOffice writes them: 0.1+0.2 reads back as 0.3.
    expect(await rawCellXml(file('types-results.xlsx'), 'B6')).toContain('<v>0.3</v>');

    const before = await zipEntries(file('types.xlsx'));
    const after = await zipEntries(file('types-results.xlsx'));
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, bytes] of before) {
      if (name !== 'xl/worksheets/sheet1.xml') expect(after.get(name)!.equals(bytes), name).toBe(true);
    }
  });

  it('has LibreOffice store the workbook when its store would give a result a format the file lacks (a General cell showing a date)', async () => {
    await writeWorkbook(file('date.xlsx'), { A1: 3, B1: formula('DATE(2020,1,2)'), B2: formula('A1*2') });
    const a = await results.recalc(file('date.xlsx'), file('date-results.xlsx'));
    await stored.recalc(file('date.xlsx'), file('date-stored.xlsx'));
    expect(a).toMatchObject({ ok: true, written: 'store' });
    expect(a.storedBecause).toMatch(/date format/);
    const values = await allValues(file('date-results.xlsx'));
    expect(values).toEqual(await allValues(file('date-stored.xlsx')));
    expect(values['Data!R1C2']).toMatchObject({ year: 2020, month: 1, day: 2 }); // read as a date, as the store writes it
  });

  it('has LibreOffice store the workbook when it renames a sheet', async () => {
    // Excel allows a name ending in an apostrophe, LibreOffice does not (it names the sheet Sheet1); exceljs refuses
    // it too, so the name is set in workbook.xml directly.
    await writeWorkbook(file('renamed.xlsx'), { A1: formula('1+1') });
    await rewritePart(file('renamed.xlsx'), 'xl/workbook.xml', (xml) =>
      xml.replace('name="Data"', 'name="Q&apos;s&apos;"'),
    );
    const renamed = await results.recalc(file('renamed.xlsx'), file('renamed-out.xlsx'));
    expect(renamed).toMatchObject({ ok: true, written: 'store' });
    expect(renamed.storedBecause).toMatch(/names the sheets/);
  });

  it("writes an array formula's results into its cells, and has LibreOffice store it when those cells are missing (as openpyxl writes one)", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.getCell('A1').value = 1;
    sheet.getCell('A2').value = 2;
    // exceljs takes a share type (array) that its typings leave out.
    const fillFormula = sheet.fillFormula.bind(sheet) as (
      range: string,
      f: string,
      res: number[],
      type: string,
    ) => void;
    fillFormula('B1:B2', 'A1:A2*10', [0, 0], 'array');
    await book.xlsx.writeFile(file('array.xlsx'));
    const array = await results.recalc(file('array.xlsx'), file('array-out.xlsx'));
    await stored.recalc(file('array.xlsx'), file('array-stored.xlsx'));
    expect(array).toMatchObject({ ok: true, written: 'results' });
    expect(await allValues(file('array-out.xlsx'))).toEqual(await allValues(file('array-stored.xlsx')));
    expect(await rawCellXml(file('array-out.xlsx'), 'B2')).toContain('<v>20</v>');

    await rewritePart(file('array.xlsx'), 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(/<c r="B2"[^>]*?(\/>|>.*?<\/c>)/, ''),
    );
    const anchorOnly = await results.recalc(file('array.xlsx'), file('anchor-out.xlsx'));
    await stored.recalc(file('array.xlsx'), file('anchor-stored.xlsx'));
    expect(anchorOnly).toMatchObject({ ok: true, written: 'store' });
    expect(anchorOnly.storedBecause).toMatch(/array formula/);
    expect(await allValues(file('anchor-out.xlsx'))).toEqual(await allValues(file('anchor-stored.xlsx')));
  });
});

async function rewritePart(workbook: string, part: string, edit: (xml: string) => string): Promise<void> {
  const zip = await JSZip.loadAsync(await readFile(workbook));
  zip.file(part, edit(await zip.file(part)!.async('string')));
  await writeFile(workbook, await zip.generateAsync({ type: 'nodebuffer' }));
}
