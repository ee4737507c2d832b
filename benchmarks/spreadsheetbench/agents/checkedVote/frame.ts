import { extractCodeOrProblem } from '../../../codeAgent/codeExtraction';
import type { ModelPaths } from '../officialPaths';
import { mendPythonSlips } from './pythonMends';
import { DATE_ENTRY_CALL, DATE_ENTRY_PYTHON } from './dateEntry';
import { TABLE_HELPER_NAMES, TABLE_HELPERS_PYTHON } from './tableHelpers';

/** Name under which the model's code runs: its tracebacks point at `solution.py`, line by line. */
export const SOLUTION_FILE = 'solution.py';

/**
 * The frame the harness runs a candidate in: it opens the input (formulas kept), runs the model's code in its own
 * namespace (`__name__` is not `__main__`, so a script's main block does not run; openpyxl, datetime, math, re,
 * openpyxl's column-letter helpers and the table helpers read_table/write_table/clear_range of tableHelpers.ts already
 * bound, as small models use them unimported), calls `solve(wb)`, stores the ISO date
 * text it wrote among dates as dates (dateEntry.ts) and saves the result to the output. The paths are
 * the test-case-1 model paths: the execution activity binds them to test case N and to the sandbox's work dir, so the
 * model never types a path.
 */
export function framedProgram(code: string, paths: ModelPaths): string {
  return [
    'import json as _json',
    'import openpyxl as _openpyxl',
    `INPUT_PATH = ${JSON.stringify(paths.input)}`,
    `OUTPUT_PATH = ${JSON.stringify(paths.output)}`,
    `_CODE = _json.loads(${JSON.stringify(JSON.stringify(code))})`,
    'import datetime as _datetime',
    'import math as _math',
    'import re as _re',
    'from openpyxl.utils import column_index_from_string as _column_index, get_column_letter as _column_letter',
    TABLE_HELPERS_PYTHON,
    DATE_ENTRY_PYTHON,
    // Names small models use without importing them (checked-vote-v4: NameError 'openpyxl' on every input).
    "_ns = {'__name__': 'solution', 'openpyxl': _openpyxl, 'datetime': _datetime, 'math': _math, 're': _re,",
    "       'get_column_letter': _column_letter, 'column_index_from_string': _column_index,",
    `       ${TABLE_HELPER_NAMES.map((n) => `'${n}': ${n}`).join(', ')}}`,
    // Registered with linecache, the code's lines show in its tracebacks (the line that failed, not just its number).
    'import linecache as _linecache',
    `_linecache.cache[${JSON.stringify(SOLUTION_FILE)}] = (len(_CODE), None, _CODE.splitlines(True), ${JSON.stringify(SOLUTION_FILE)})`,
    `exec(compile(_CODE, ${JSON.stringify(SOLUTION_FILE)}, 'exec'), _ns)`,
    "if not callable(_ns.get('solve')):",
    "    raise RuntimeError('the program defines no function solve(wb)')",
    '_wb = _openpyxl.load_workbook(INPUT_PATH)',
    "_result = _ns['solve'](_wb)",
    'if isinstance(_result, _openpyxl.Workbook):',
    '    _wb = _result',
    ...DATE_ENTRY_CALL,
    '_wb.save(OUTPUT_PATH)',
    '',
  ].join('\n');
}

/**
 * The model's code in a reply (its unambiguous slips mended: pythonMends.ts), or why there is none to run (a truncated
 * reply's code is cut off mid-way).
 */
export function solveCodeOf(
  reply: string,
  finishReason: string,
): { code: string; mends?: string[] } | { problem: string } {
  if (finishReason === 'length') return { problem: 'the reply was cut off at the token limit (finish_reason: length)' };
  const found = extractCodeOrProblem(reply);
  if (found.code === undefined) return { problem: found.problem };
  if (!/^\s*def\s+solve\s*\(/m.test(found.code)) return { problem: 'the code defines no function solve(wb)' };
  const mended = mendPythonSlips(found.code);
  return mended.mends.length ? mended : { code: found.code };
}
