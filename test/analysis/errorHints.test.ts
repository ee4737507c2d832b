import { describe, expect, it } from 'vitest';
import { pythonErrorHint } from '../../analysis/conversation/errorHints';

/** The errors the 1.5B's a15 programs got (recorded): main program, then second program (its own frames). */
const RANGE_INDEX_MAIN = [
  'Traceback (most recent call last):',
  '  File "<cell 5>", line 1, in <module>',
  '  ... 4 frame(s) omitted ...',
  '  File "/opt/sheetbench/python/lib/python3.11/site-packages/pandas/core/indexes/range.py", line 417, in get_loc',
  '    raise KeyError(key)',
  "KeyError: '2024-02-29'",
].join('\n');
const RANGE_INDEX_SECOND = [
  'Traceback (most recent call last):',
  '  File "<cell 8>", line 6, in <module>',
  '  File "<second-program>", line 13, in <module>',
  '    ma_last_date = ma.loc[last_date]',
  '                   ~~~~~~^^^^^^^^^^^',
  "KeyError: '2024-02-29'",
].join('\n');
const MISSING_COLUMN = [
  'Traceback (most recent call last):',
  '  File "<cell 3>", line 3, in <module>',
  '  ... 2 frame(s) omitted ...',
  '  File "/opt/sheetbench/python/lib/python3.11/site-packages/pandas/core/indexes/base.py", line 3812, in get_loc',
  '    raise KeyError(key) from err',
  "KeyError: 'amout'",
].join('\n');

describe('hints for the errors small models make with pandas', () => {
  it('a label looked up in row numbers (a15: ma.loc[last_date]) names the key and the idioms that work', () => {
    for (const error of [RANGE_INDEX_MAIN, RANGE_INDEX_SECOND]) {
      const hint = pythonErrorHint(error);
      expect(hint).toMatch(/^'2024-02-29' is not a label of the index/);
      expect(hint).toContain('.iloc[-1]');
    }
  });

  it('a column that is not one names it and points at the exact names', () => {
    expect(pythonErrorHint(MISSING_COLUMN)).toMatch(/^'amout' is not a column/);
    expect(
      pythonErrorHint("  File \"<second-program>\", line 2\n    df['Total Amount']\nKeyError: 'Total Amount'"),
    ).toMatch(/not a column/);
  });

  it("web_fetch used as a Python function or module (the 1.5B's a09) points at the tool and at URLs written in the code", () => {
    for (const error of ["NameError: name 'web_fetch' is not defined", "ModuleNotFoundError: No module named 'utils'"])
      expect(pythonErrorHint(error)).toMatch(/^web_fetch is a tool/);
    expect(pythonErrorHint("ModuleNotFoundError: No module named 'xgboost'")).toBeUndefined();
  });

  it('savefig on axes, text where numbers are expected; nothing for an error it does not know', () => {
    expect(pythonErrorHint("AttributeError: 'Axes' object has no attribute 'savefig'")).toContain('ax.figure.savefig');
    expect(pythonErrorHint("TypeError: unsupported operand type(s) for +: 'int' and 'str'")).toBeUndefined();
    expect(pythonErrorHint("TypeError: unsupported operand type(s) for /: 'str' and 'int'")).toContain('pd.to_numeric');
    expect(pythonErrorHint("KeyError: 'x'")).toBeUndefined();
    expect(pythonErrorHint('ZeroDivisionError: division by zero')).toBeUndefined();
  });
});
