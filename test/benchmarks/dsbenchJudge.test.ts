import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_JUDGE_TEMPLATE,
  exactLetterMatch,
  loadJudgeTemplate,
  parseVerdict,
  renderJudgePrompt,
} from '../../benchmarks/dsbench/judge';

describe('DSBench judge', () => {
  it('reads a verdict as the original does ("true" anywhere = correct) and records other replies as unparseable', () => {
    expect(parseVerdict('True')).toBe('correct');
    expect(parseVerdict('The prediction is TRUE.')).toBe('correct');
    expect(parseVerdict('False')).toBe('incorrect');
    expect(parseVerdict('I cannot tell.')).toBe('unparseable');
    expect(parseVerdict('')).toBe('unparseable');
  });
  it('fills the three slots once, leaving slot-like text inside a question alone', async () => {
    const template = await loadJudgeTemplate();
    expect(template.version).toMatch(/^sha256:[0-9a-f]{16}$/);
    const prompt = renderJudgePrompt(template.text, {
      question: 'What is {answer}?',
      answer: 'C',
      predicted: 'It is C.',
    });
    expect(prompt).toContain('Question: What is {answer}?\nTrue answer: C\nPredicted answer: It is C.\n');
    expect(prompt).toContain('True or False');
  });
  it('refuses a template without the slots, naming them', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-tpl-')), 'judge.txt');
    writeFileSync(file, 'Is {predicted} right?');
    await expect(loadJudgeTemplate(file)).rejects.toThrow(
      `judge template ${file} lacks the slot(s) {question}, {answer}`,
    );
    await expect(loadJudgeTemplate(path.join(path.dirname(file), 'missing.txt'))).rejects.toThrow(/cannot be read/);
    expect(DEFAULT_JUDGE_TEMPLATE.endsWith('judge-template.txt')).toBe(true);
  });
  it('checks a multiple-choice prediction against the letter exactly', () => {
    expect(exactLetterMatch('C', 'The answer is C.')).toBe(true);
    expect(exactLetterMatch('c', 'C')).toBe(true);
    expect(exactLetterMatch('C', 'Answer: (B)')).toBe(false);
    expect(exactLetterMatch('D', 'Between 10 and 20, so D')).toBe(true);
    expect(exactLetterMatch('A', 'Could be A or B')).toBe(false);
  });
});
