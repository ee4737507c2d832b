import { describe, expect, it } from 'vitest';
import { extractPythonCode } from '../../benchmarks/codeAgent/codeExtraction';

describe('extractPythonCode (official rule)', () => {
  it('takes the first python block, newline-trimmed', () => {
    const reply = 'Here:\n```python\n\nimport openpyxl\nprint(1)\n\n```\nand\n```python\nprint(2)\n```';
    expect(extractPythonCode(reply)).toBe('import openpyxl\nprint(1)');
  });
  it('returns the whole reply when there is no python block', () => {
    expect(extractPythonCode('\nprint(3)\n')).toBe('print(3)');
    expect(extractPythonCode('```\nprint(4)\n```')).toBe('```\nprint(4)\n```');
  });
  it('takes the rest of the reply when the block is not closed (truncated reply)', () => {
    expect(extractPythonCode('```python\nx = 1\ny =')).toBe('x = 1\ny =');
  });
});
