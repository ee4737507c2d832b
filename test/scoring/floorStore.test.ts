/**
 * The floor store: the floor of a task is computed once per dataset version and read back after, and computed again
 * when the dataset version, a workbook or the entry itself changes. Verdicts never depend on the store.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeEach, describe, expect, it } from 'vitest';
import { FloorStore, scoreTask } from '../../benchmarks/spreadsheetbench/scoring';
import type { SheetTask } from '../../benchmarks/spreadsheetbench/dataset';

async function book(file: string, cells: Record<string, ExcelJS.CellValue>): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const [address, value] of Object.entries(cells)) ws.getCell(address).value = value;
  await mkdir(path.dirname(file), { recursive: true });
  await wb.xlsx.writeFile(file);
}

const task: SheetTask = {
  id: 7,
  instruction: 'fill C3',
  spreadsheet_path: 'spreadsheet/7',
  instruction_type: 'Cell-Level Manipulation',
  answer_position: "'Sheet1'!C1:C4",
};
const solved = { C1: 'Total', C2: 10, C3: 20, C4: 30 };
const unsolved = { C1: 'Total', C2: 10, C4: 30 };

describe('floor store', () => {
  let dir: string;
  let datasetDir: string;
  let store: FloorStore;
  const input = (n: number) => path.join(datasetDir, `spreadsheet/7/${n}_7_input.xlsx`);
  const score = (datasetVersion: string) =>
    scoreTask({
      task,
      datasetDir,
      outputPathFor: (n) => path.join(dir, `missing-${n}.xlsx`),
      withFloor: true,
      floorStore: { store, datasetVersion },
    });
  /** The one entry file the store holds for dataset version `v1`. */
  const entryFile = async () => path.join(store.dir, 'v1', (await readdir(path.join(store.dir, 'v1')))[0]);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sb-floor-'));
    datasetDir = path.join(dir, 'dataset');
    store = new FloorStore(path.join(dir, 'floor'));
    await book(input(1), unsolved);
    await book(path.join(datasetDir, 'spreadsheet/7/1_7_answer.xlsx'), solved);
    await book(input(2), solved);
    await book(path.join(datasetDir, 'spreadsheet/7/2_7_answer.xlsx'), solved);
  });

  it('computes the floor once, keeps it, and reads it back for the same dataset version', async () => {
    const first = await score('v1');
    expect(first.cells.map((c) => c.inputPasses)).toEqual([false, true, undefined]);
    const file = await entryFile();
    const entry = JSON.parse(await readFile(file, 'utf8')) as { cases: { inputPasses: boolean }[] };
    expect(entry.cases.map((c) => c.inputPasses)).toEqual([false, true]);
    // Proof that the second scoring reads the store instead of the inputs: an entry edited by hand is what it reports.
    entry.cases[0].inputPasses = true;
    await writeFile(file, JSON.stringify(entry));
    const second = await score('v1');
    expect(second.cells.map((c) => c.inputPasses)).toEqual([true, true, undefined]);
    // The verdicts of the outputs never come from the store.
    expect(second.official.test_case_results).toEqual([0, 0, 0]);
  });

  it('scores again for another dataset version, a replaced input workbook or a corrupt entry', async () => {
    await score('v1');
    const file = await entryFile();
    const forged = JSON.parse(await readFile(file, 'utf8')) as { cases: { inputPasses: boolean }[] };
    forged.cases[0].inputPasses = true;
    await writeFile(file, JSON.stringify(forged));
    // Another dataset version has its own entry, computed from the workbooks.
    expect((await score('v2')).cells.map((c) => c.inputPasses)).toEqual([false, true, undefined]);
    // The input of test case 1 now holds the answer: its size changes, the entry is stale.
    await book(input(1), { ...solved, D9: 'changed' });
    expect((await score('v1')).cells.map((c) => c.inputPasses)).toEqual([true, true, undefined]);
    await writeFile(file, '{"mode": "official", "cases": [');
    await book(input(1), unsolved);
    expect((await score('v1')).cells.map((c) => c.inputPasses)).toEqual([false, true, undefined]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ mode: 'official' });
  });

  it('another scoring mode or answer position is not served from an entry made for the official one', async () => {
    await score('v1');
    const file = await entryFile();
    const forged = JSON.parse(await readFile(file, 'utf8')) as { cases: { inputPasses: boolean }[] };
    forged.cases[0].inputPasses = true;
    await writeFile(file, JSON.stringify(forged));
    const strict = await scoreTask({
      task,
      datasetDir,
      outputPathFor: (n) => path.join(dir, `missing-${n}.xlsx`),
      mode: 'strict',
      withFloor: true,
      floorStore: { store, datasetVersion: 'v1' },
    });
    expect(strict.cells.map((c) => c.inputPasses)).toEqual([false, true, undefined]);
  });
});
