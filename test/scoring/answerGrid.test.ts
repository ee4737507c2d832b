/** The task page's grids: input, expected and got side by side, as Excel shows them, mismatches marked with why. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerGrid, MAX_GRID_ROWS } from '../../benchmarks/spreadsheetbench/grid/answerGrid';

async function book(
  file: string,
  cells: Record<string, { v: ExcelJS.CellValue; fmt?: string }>,
  sheet = 'Sheet1',
): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const [address, { v, fmt }] of Object.entries(cells)) {
    ws.getCell(address).value = v;
    if (fmt) ws.getCell(address).numFmt = fmt;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await wb.xlsx.writeFile(file);
  return file;
}

describe('answer grid', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sb-grid-'));
  });

  it('shows the three workbooks over the answer range, formatted, with the mismatched cell and its reason', async () => {
    const answerPath = await book(path.join(dir, 'a.xlsx'), {
      A1: { v: 'Item' },
      B1: { v: 'Price' },
      A2: { v: 'pen' },
      B2: { v: 1.5, fmt: '"$"#,##0.00' },
      B3: { v: 1234.5, fmt: '"$"#,##0.00' },
      B4: { v: new Date(Date.UTC(2024, 2, 5)), fmt: 'yyyy-mm-dd' },
    });
    const inputPath = await book(path.join(dir, 'i.xlsx'), { A1: { v: 'Item' }, B1: { v: 'Price' }, A2: { v: 'pen' } });
    const outputPath = await book(path.join(dir, 'o.xlsx'), {
      A1: { v: 'Item' },
      B1: { v: 'Price' },
      A2: { v: 'pen' },
      B2: { v: 1.5, fmt: '0.00' },
      B3: { v: 1243.5, fmt: '"$"#,##0.00' },
      B4: { v: new Date(Date.UTC(2024, 2, 5)), fmt: 'd-mmm-yy' },
    });
    const grid = await answerGrid({
      answerPath,
      inputPath,
      outputPath,
      answerPosition: "'Sheet1'!B1:B4",
      mode: 'official',
    });
    expect(grid.problems).toEqual([]);
    const [piece] = grid.pieces;
    expect(piece).toMatchObject({ sheet: 'Sheet1', shown: 'B1:B4', columns: ['B'], rows: [1, 2, 3, 4], mismatches: 1 });
    expect(piece.expected!.map((r) => r[0].text)).toEqual(['Price', '$1.50', '$1,234.50', '2024-03-05']);
    expect(piece.input!.map((r) => r[0].text)).toEqual(['Price', '', '', '']);
    expect(piece.got!.map((r) => r[0].text)).toEqual(['Price', '1.50', '$1,243.50', '5-Mar-24']);
    // Formats never matter to the official compare: only B3's value differs.
    expect(piece.got!.map((r) => r[0].mismatch ?? null)).toEqual([
      null,
      null,
      'expected 1234.5 (number), got 1243.5 (number)',
      null,
    ]);
  });

  it('names what it cannot show: a missing output, a missing sheet, a workbook that cannot be opened', async () => {
    const answerPath = await book(path.join(dir, 'a2.xlsx'), { A1: { v: 1 } });
    const missing = await answerGrid({
      answerPath,
      inputPath: answerPath,
      outputPath: path.join(dir, 'none.xlsx'),
      answerPosition: 'A1',
      mode: 'official',
    });
    expect(missing.problems).toEqual(['no output workbook (the agent wrote none for this test case)']);
    expect(missing.pieces[0].got).toBeNull();
    const otherSheet = await book(path.join(dir, 'other.xlsx'), { A1: { v: 1 } }, 'Other');
    const noSheet = await answerGrid({ answerPath, outputPath: otherSheet, answerPosition: 'A1', mode: 'official' });
    expect(noSheet.problems).toContain('the output workbook has no sheet "Sheet1"');
    const broken = path.join(dir, 'broken.xlsx');
    await writeFile(broken, 'PK not really');
    const unreadable = await answerGrid({ answerPath, outputPath: broken, answerPosition: 'A1', mode: 'official' });
    expect(unreadable.problems).toContain('no input workbook');
    expect(unreadable.problems.join()).toMatch(/the output workbook cannot be opened: File is not a zip file/);
    const badAnswer = await answerGrid({
      answerPath: broken,
      outputPath: answerPath,
      answerPosition: 'A1',
      mode: 'official',
    });
    expect(badAnswer.pieces).toEqual([]);
    expect(badAnswer.problems.join()).toMatch(/expected \(answer\) workbook cannot be opened/);
  });

  it('cuts a long range to a window and still counts the differing cells outside it', async () => {
    const cells: Record<string, { v: ExcelJS.CellValue }> = {};
    const wrong: Record<string, { v: ExcelJS.CellValue }> = {};
    for (let r = 1; r <= MAX_GRID_ROWS + 50; r++) {
      cells[`A${r}`] = { v: r };
      wrong[`A${r}`] = { v: r === 3 || r > MAX_GRID_ROWS ? -r : r };
    }
    const answerPath = await book(path.join(dir, 'long-a.xlsx'), cells);
    const outputPath = await book(path.join(dir, 'long-o.xlsx'), wrong);
    const grid = await answerGrid({ answerPath, outputPath, answerPosition: 'A1:A5000', mode: 'official' });
    const piece = grid.pieces[0];
    expect(piece.rows).toHaveLength(MAX_GRID_ROWS);
    expect(piece.mismatches).toBe(51);
    expect(piece.cut).toMatch(/50 more differing cells outside it/);
  });
});
