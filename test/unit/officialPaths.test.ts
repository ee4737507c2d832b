import { describe, expect, it } from 'vitest';
import { bindCodeToTestCase, modelPaths } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import type { SheetTask } from '../../benchmarks/spreadsheetbench/dataset';

const task: SheetTask = {
  id: '79-7',
  instruction: 'x',
  spreadsheet_path: 'spreadsheet/79-7',
  instruction_type: 'Sheet-Level Manipulation',
  answer_position: "'Sheet1'!A1:A4",
};

describe('model paths and test-case binding', () => {
  it('shows the official container paths', () => {
    expect(modelPaths(task, 'single_gpt')).toEqual({
      input: '/mnt/data/spreadsheet/79-7/1_79-7_input.xlsx',
      output: '/mnt/data/outputs/single_gpt/1_79-7_output.xlsx',
    });
  });
  it('rebinds literal paths to test case N inside the work dir', () => {
    const code =
      "wb = load('/mnt/data/spreadsheet/79-7/1_79-7_input.xlsx')\nwb.save('/mnt/data/outputs/single_gpt/1_79-7_output.xlsx')";
    expect(bindCodeToTestCase(code, task, 'single_gpt', 3, '/job')).toBe(
      "wb = load('/job/3_79-7_input.xlsx')\nwb.save('/job/3_79-7_output.xlsx')",
    );
  });
  it('leaves code that builds its own names unchanged apart from the directories', () => {
    const code = "d = '/mnt/data/spreadsheet/79-7/'\nname = '1_' + '79-7' + '_input.xlsx'";
    expect(bindCodeToTestCase(code, task, 'single_gpt', 2, '/job')).toBe(
      "d = '/job/'\nname = '1_' + '79-7' + '_input.xlsx'",
    );
  });
});
