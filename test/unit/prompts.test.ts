import { describe, expect, it } from 'vitest';
import { renderOfficialPrompt } from '../../benchmarks/spreadsheetbench/agents/prompts/spreadsheetbench';
import type { SheetTask } from '../../benchmarks/spreadsheetbench/dataset';

const task: SheetTask = {
  id: 39604,
  instruction: 'Use {braces} literally',
  spreadsheet_path: 'spreadsheet/39604',
  instruction_type: 'Cell-Level Manipulation',
  answer_position: 'C4',
};
const paths = {
  input: '/mnt/data/spreadsheet/39604/1_39604_input.xlsx',
  output: '/mnt/data/outputs/single_m/1_39604_output.xlsx',
};

function sections(prompt: string): string[] {
  return [...prompt.matchAll(/^### (\w+)$/gm)].map((m) => m[1]);
}

describe('official prompt templates', () => {
  it('single: six official sections in order, values filled, ends with the official request', () => {
    const p = renderOfficialPrompt('single', task, paths, { preview: 'Sheet Name: before\n...' });
    expect(p.startsWith('You are a spreadsheet expert who can manipulate spreadsheets through Python code.')).toBe(
      true,
    );
    expect(sections(p)).toEqual([
      'instruction',
      'spreadsheet_path',
      'spreadsheet_content',
      'instruction_type',
      'answer_position',
      'output_path',
    ]);
    expect(p).toContain('### instruction\nUse {braces} literally\n');
    expect(p).toContain(`### output_path\n${paths.output}\n`);
    expect(p.trimEnd().endsWith('You should generate Python code for the final solution of the question.')).toBe(true);
  });
  it('react without preview: no spreadsheet_content section, five types, max turns', () => {
    const p = renderOfficialPrompt('react_no_preview', task, paths, { maxTurns: 7 });
    expect(sections(p)).toEqual([
      'instruction',
      'spreadsheet_path',
      'instruction_type',
      'answer_position',
      'output_path',
    ]);
    expect(p).toContain('which contains five types of information');
    expect(p).toContain('can be generate through 7 rounds of interaction');
  });
  it('react with preview keeps the content section', () => {
    const p = renderOfficialPrompt('react_preview', task, paths, { preview: 'PREVIEW', maxTurns: 5 });
    expect(p).toContain('### spreadsheet_content\nPREVIEW\n');
  });
});
