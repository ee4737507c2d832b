/** The scorer's cell diffs: every differing cell with both values and types, the cap, the answer's fill, the floor, unreachable answers. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffTestCase, evaluateTestCase, MAX_MISMATCHES, scoreTask } from '../../benchmarks/spreadsheetbench/scoring';
import type { SheetTask } from '../../benchmarks/spreadsheetbench/dataset';

type Cells = Record<string, ExcelJS.CellValue>;

async function book(file: string, sheets: Record<string, Cells>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  for (const [name, cells] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const [address, value] of Object.entries(cells)) ws.getCell(address).value = value;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await wb.xlsx.writeFile(file);
  return file;
}

describe('cell diffs', () => {
  let dir: string;
  let answer: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sb-celldiff-'));
    answer = await book(path.join(dir, 'answer.xlsx'), {
      Data: { A1: 'x' },
      Sheet1: { C1: 'Total', C2: 10, C3: 20, C4: 30, D2: 'a' },
    });
  });

  it('lists every differing cell with expected and got values and types, in the official order; the reason names the first', async () => {
    const output = await book(path.join(dir, 'wrong.xlsx'), {
      Data: { A1: 'x' },
      Sheet1: { C1: 'Total', C2: '10', C3: 21, C4: 'thirty', D2: 'a', D3: { formula: 'C3*2' } },
    });
    const diff = await diffTestCase({
      answerPath: answer,
      outputPath: output,
      answerPosition: "'Sheet1'!C1:D4",
      index: 2,
    });
    expect(diff.pass).toBe(false);
    expect(diff.index).toBe(2);
    expect(diff.reason).toBe('Sheet1!C3: expected 20 got 21');
    expect(diff.checkedCells).toBe(8);
    // "10" (text) equals 10 under the official transform; D3 is a formula without a cached value: empty, as expected.
    expect(diff.mismatches).toEqual([
      {
        cell: 'Sheet1!C3',
        expected: { value: 20, type: 'number' },
        got: { value: 21, type: 'number' },
        check: 'value',
      },
      {
        cell: 'Sheet1!C4',
        expected: { value: 30, type: 'number' },
        got: { value: 'thirty', type: 'text' },
        check: 'value',
      },
    ]);
    expect(diff.omitted).toBe(0);
    expect(diff.fill).toEqual({ cells: 8, filled: 5 });
    expect(diff.unreachable).toBeUndefined();
    // The verdict is the one the official evaluator gives.
    expect(
      await evaluateTestCase({ answerPath: answer, outputPath: output, answerPosition: "'Sheet1'!C1:D4", index: 2 }),
    ).toEqual({ index: 2, pass: false, reason: diff.reason });
  });

  it('marks a got cell that holds a formula without a cached value (the output was not recalculated)', async () => {
    const output = await book(path.join(dir, 'uncached.xlsx'), {
      Sheet1: { C1: 'Total', C2: 10, C3: { formula: 'C2*2' }, C4: 30 },
    });
    const diff = await diffTestCase({ answerPath: answer, outputPath: output, answerPosition: "'Sheet1'!C1:C4" });
    expect(diff.mismatches).toEqual([
      {
        cell: 'Sheet1!C3',
        expected: { value: 20, type: 'number' },
        got: { value: null, type: 'empty', uncachedFormula: true },
        check: 'value',
      },
    ]);
  });

  it('caps the list and counts what it left out', async () => {
    const many: Cells = {};
    const wrong: Cells = {};
    for (let r = 1; r <= 150; r++) {
      many[`B${r}`] = r;
      wrong[`B${r}`] = r + 1;
    }
    const a = await book(path.join(dir, 'many-answer.xlsx'), { Sheet1: many });
    const o = await book(path.join(dir, 'many-output.xlsx'), { Sheet1: wrong });
    const diff = await diffTestCase({ answerPath: a, outputPath: o, answerPosition: 'B1:B200' });
    expect(diff.mismatches).toHaveLength(MAX_MISMATCHES);
    expect(diff.mismatches[0].cell).toBe('Sheet1!B1');
    expect(diff.omitted).toBe(150 - MAX_MISMATCHES);
    expect(diff.checkedCells).toBe(200);
    // 150 of the 200 checked cells hold the answer.
    expect(diff.fill).toEqual({ cells: 200, filled: 150 });
  });

  it('a passing test case has no mismatches; a missing output still records the answer fill', async () => {
    const pass = await diffTestCase({ answerPath: answer, outputPath: answer, answerPosition: "'Sheet1'!C1:C4" });
    expect(pass).toMatchObject({
      pass: true,
      mismatches: [],
      omitted: 0,
      checkedCells: 4,
      fill: { cells: 4, filled: 4 },
    });
    expect(pass.reason).toBeUndefined();
    const missing = await diffTestCase({
      answerPath: answer,
      outputPath: path.join(dir, 'nope.xlsx'),
      answerPosition: "'Sheet1'!C1:C10",
    });
    expect(missing).toMatchObject({
      pass: false,
      reason: 'File not exist',
      mismatches: [],
      checkedCells: 0,
      fill: { cells: 10, filled: 4 },
    });
  });

  it('an output that cannot be opened fails with the cause; answers no output can match are flagged unreachable', async () => {
    const broken = path.join(dir, 'broken.xlsx');
    await writeFile(broken, 'not a zip');
    const unreadable = await diffTestCase({ answerPath: answer, outputPath: broken, answerPosition: "'Sheet1'!C1:C4" });
    expect(unreadable.pass).toBe(false);
    expect(unreadable.reason).toMatch(/^load error: File is not a zip file/);
    expect(unreadable.unreachable).toBeUndefined();

    const noSheet = await diffTestCase({ answerPath: answer, outputPath: answer, answerPosition: "'Summary'!A1:B2" });
    expect(noSheet.pass).toBe(false);
    expect(noSheet.unreachable).toMatch(/worksheet "Summary" not found in answer.*every output scores 0/);
    // The official parser raises on a range end without a row (73-45 style is vacuous; this one is an error).
    const unparsable = await diffTestCase({ answerPath: answer, outputPath: answer, answerPosition: "'Sheet1'!C1:D" });
    expect(unparsable.pass).toBe(false);
    expect(unparsable.unreachable).toMatch(/answer_position piece/);
    const badAnswer = await diffTestCase({ answerPath: broken, outputPath: answer, answerPosition: 'A1' });
    expect(badAnswer.unreachable).toMatch(/answer workbook cannot be opened/);
    expect(badAnswer.fill).toBeNull();
  });

  it('scoreTask records the floor (does the unchanged input pass?) and marks a test case the dataset lacks', async () => {
    const datasetDir = path.join(dir, 'dataset');
    const task: SheetTask = {
      id: 7,
      instruction: 'fill C3',
      spreadsheet_path: 'spreadsheet/7',
      instruction_type: 'Cell-Level Manipulation',
      answer_position: "'Sheet1'!C1:C4",
    };
    const solved = { Sheet1: { C1: 'Total', C2: 10, C3: 20, C4: 30 } };
    const unsolved = { Sheet1: { C1: 'Total', C2: 10, C4: 30 } };
    await book(path.join(datasetDir, 'spreadsheet/7/1_7_input.xlsx'), unsolved);
    await book(path.join(datasetDir, 'spreadsheet/7/1_7_answer.xlsx'), solved);
    // Test case 2's input already holds the answer: the do-nothing agent passes it.
    await book(path.join(datasetDir, 'spreadsheet/7/2_7_input.xlsx'), solved);
    await book(path.join(datasetDir, 'spreadsheet/7/2_7_answer.xlsx'), solved);
    const outputs = path.join(dir, 'outputs');
    await book(path.join(outputs, '1_7_output.xlsx'), solved);
    const scored = await scoreTask({
      task,
      datasetDir,
      outputPathFor: (n) => path.join(outputs, `${n}_7_output.xlsx`),
      withFloor: true,
    });
    expect(scored.official.test_case_results).toEqual([1, 0, 0]);
    expect(scored.cells.map((c) => c.inputPasses)).toEqual([false, true, undefined]);
    expect(scored.cells[2].unreachable).toBe('the dataset has no test case 3 (no input workbook): it always scores 0');
    expect(scored.cells[1].reason).toBe('File not exist');
  });
});
