import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset, selectSheetTasks, testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { sharedData } from '../helpers/sharedData';

const DEV20 = sharedData('spreadsheetbench-dev20');

function tmpDataset(content: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-ds-'));
  writeFileSync(path.join(dir, 'dataset.json'), content);
  return dir;
}

describe('SpreadsheetBench dataset loading', () => {
  it('loads the 20 real tasks, keeping int and string ids', async () => {
    const tasks = await loadDataset(DEV20);
    expect(tasks).toHaveLength(20);
    expect(tasks.filter((t) => typeof t.id === 'number')).toHaveLength(10);
    expect(tasks.some((t) => t.id === 'CF_8276')).toBe(true);
    const cases = await testCaseFiles(
      DEV20,
      tasks.find((t) => t.id === '79-7')!,
    );
    expect(cases.map((c) => path.basename(c.inputPath))).toEqual([
      '1_79-7_input.xlsx',
      '2_79-7_input.xlsx',
      '3_79-7_input.xlsx',
    ]);
  });
  it('names the folder when dataset.json is missing', async () => {
    await expect(loadDataset('/nonexistent/ds')).rejects.toThrow(/\/nonexistent\/ds has no readable dataset.json/);
  });
  it('reports invalid JSON and malformed records by task id', async () => {
    await expect(loadDataset(tmpDataset('[{'))).rejects.toThrow(/not valid JSON/);
    const bad = JSON.stringify([
      { id: 7, instruction: 'x', spreadsheet_path: 'spreadsheet/7', instruction_type: 'Cell-Level Manipulation' },
    ]);
    await expect(loadDataset(tmpDataset(bad))).rejects.toThrow(/task 7 is malformed: answer_position/);
    await expect(loadDataset(tmpDataset('{"id": 1}'))).rejects.toBeInstanceOf(DatasetError);
  });
  it('selects by id and limit, rejecting unknown ids', async () => {
    const tasks = await loadDataset(DEV20);
    expect(selectSheetTasks(tasks, { ids: ['79-7', '39604'] }).map((t) => t.id)).toEqual([39604, '79-7']);
    expect(selectSheetTasks(tasks, { limit: 3 })).toHaveLength(3);
    expect(() => selectSheetTasks(tasks, { ids: ['nope'] })).toThrow(/unknown task id\(s\): nope/);
  });
  it('finds only the test cases whose inputs exist', async () => {
    const dir = tmpDataset('[]');
    mkdirSync(path.join(dir, 'spreadsheet/5'), { recursive: true });
    writeFileSync(path.join(dir, 'spreadsheet/5/1_5_input.xlsx'), 'x');
    const task = {
      id: 5,
      instruction: '',
      spreadsheet_path: 'spreadsheet/5',
      instruction_type: 'Cell-Level Manipulation' as const,
      answer_position: 'A1',
    };
    expect((await testCaseFiles(dir, task)).map((c) => c.index)).toEqual([1]);
  });
});
