/** The formula check that lets the recalculator copy a workbook without formulas: conservative on anything unusual. */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { isFormulaFree } from '../../lib/recalc/formulaFree';
import { formula, writeWorkbook } from './workbooks';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'formula-free-'));
});

/** A copy of `source` with one part's text replaced (or a part added). */
async function withPart(source: string, name: string, part: string, text: string): Promise<string> {
  const zip = await JSZip.loadAsync(await readFile(source));
  zip.file(part, text);
  const out = path.join(dir, name);
  await writeFile(out, await zip.generateAsync({ type: 'nodebuffer' }));
  return out;
}

const sheet = (cells: string) =>
  `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1">${cells}</x:row></x:sheetData></x:worksheet>`;

describe('isFormulaFree', () => {
  it('is true for values only (numbers, text, dates), false as soon as one cell has a formula', async () => {
    const values = path.join(dir, 'values.xlsx');
    await writeWorkbook(values, { A1: 1, B1: 'text', C1: new Date(Date.UTC(2024, 0, 2)), D1: true });
    expect(await isFormulaFree(values)).toBe(true);
    const withFormula = path.join(dir, 'formula.xlsx');
    await writeWorkbook(withFormula, { A1: 1, B1: formula('A1+1', 2) });
    expect(await isFormulaFree(withFormula)).toBe(false);
  });

  it('sees shared and prefixed formulas, and never mistakes <fill> or <formula> (conditional formats) for one', async () => {
    const values = path.join(dir, 'base.xlsx');
    await writeWorkbook(values, { A1: 1 });
    const shared = await withPart(
      values,
      'shared.xlsx',
      'xl/worksheets/sheet1.xml',
      sheet('<x:c r="A1"><x:f t="shared" si="0"/><x:v>1</x:v></x:c>'),
    );
    expect(await isFormulaFree(shared)).toBe(false);
    const lookalikes = await withPart(
      values,
      'lookalikes.xlsx',
      'xl/worksheets/sheet1.xml',
      sheet('<x:c r="A1"><x:v>1</x:v></x:c>').replace(
        '</x:sheetData>',
        '</x:sheetData><x:conditionalFormatting sqref="A1"><x:cfRule type="expression"><x:formula>A1&gt;0</x:formula></x:cfRule></x:conditionalFormatting>',
      ),
    );
    expect(await isFormulaFree(lookalikes)).toBe(true);
  });

  it('is false for a macro sheet, a corrupt or non-xlsx file, and a missing one (the engine decides)', async () => {
    const values = path.join(dir, 'base2.xlsx');
    await writeWorkbook(values, { A1: 1 });
    expect(await isFormulaFree(await withPart(values, 'macro.xlsx', 'xl/macrosheets/sheet1.xml', sheet('')))).toBe(
      false,
    );
    const corrupt = path.join(dir, 'corrupt.xlsx');
    await writeFile(corrupt, (await readFile(values)).subarray(0, 200));
    expect(await isFormulaFree(corrupt)).toBe(false);
    const text = path.join(dir, 'text.xlsx');
    await writeFile(text, 'not a workbook');
    expect(await isFormulaFree(text)).toBe(false);
    expect(await isFormulaFree(path.join(dir, 'missing.xlsx'))).toBe(false);
  });
});
