import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCandidate,
  errorsNamedIn,
  regionLeftAlone,
  type CaseEvidence,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { choose, settled, similarity, tied } from '../../benchmarks/spreadsheetbench/agents/checkedVote/vote';
import { framedProgram, solveCodeOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import { mendPythonSlips } from '../../benchmarks/spreadsheetbench/agents/checkedVote/pythonMends';
import { repairMessage } from '../../benchmarks/spreadsheetbench/agents/checkedVote/feedback';
import { MissingEvidence } from '../../benchmarks/spreadsheetbench/agents/checkedVote/missingEvidence';
import { crashHint } from '../../benchmarks/spreadsheetbench/agents/checkedVote/crashHints';
import { repeatedOrFound } from '../../benchmarks/spreadsheetbench/agents/checkedVote/repeatedReply';
import {
  PYTHON_INSTRUCTIONS,
  PYTHON_SYSTEM_PROMPT,
  SYSTEM_PROMPT,
  taskPrompt,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/prompt';
import { PYTHON_EXAMPLE } from '../../benchmarks/spreadsheetbench/agents/checkedVote/examples';
import { workbookViewProgram } from '../../benchmarks/spreadsheetbench/agents/checkedVote/view';
import { VIEW_BUDGET_CHARS } from '../../benchmarks/spreadsheetbench/agents/checkedVote/settings';
import { readRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/regionCells';
import type { CellValue } from '../../benchmarks/workbook/cellValue';
import { sandboxPythonPath } from '../../lib/sandbox/paths';
import { DEV20 } from '../helpers/datasets';

const region = (...values: CellValue[]) => ({
  cells: values.map((value, i) => ({ address: `C${i + 1}`, value, uncachedFormula: false })),
  missingSheets: [],
});

function evidence(testCase: number, out: CellValue[], inp: CellValue[] = out.map(() => null)): CaseEvidence {
  return { testCase, error: '', timedOut: false, outputProduced: true, output: region(...out), input: region(...inp) };
}

describe('checks (no answers needed)', () => {
  it('passes a candidate that filled the answer cells with consistent values', () => {
    const check = checkCandidate([evidence(1, [1, 2]), evidence(2, [3, '4']), evidence(3, [5, 6.001])]);
    expect(check.problems).toEqual([]);
    expect(check.passed).toBe(true);
    // Numbers as the scorer compares them: numeric text is a number, rounding to 2 places.
    expect(check.signature).toEqual([
      ['f:1', 'f:2'],
      ['f:3', 'f:4'],
      ['f:5', 'f:6'],
    ]);
  });

  it('names a crash, a timeout, a missing output and an empty region, per test case', () => {
    const check = checkCandidate([
      { ...evidence(1, [1]), error: 'Traceback…\nKeyError: x' },
      { ...evidence(2, [1]), timedOut: true },
      { ...evidence(3, [1]), outputProduced: false, output: undefined },
      evidence(4, [null, '']),
    ]);
    expect(check.passed).toBe(false);
    expect(check.problems.map((p) => [p.testCase, p.kind])).toEqual([
      [1, 'crashed'],
      [2, 'timed_out'],
      [3, 'no_output'],
      [4, 'empty'],
    ]);
  });

  it('rejects Excel errors, placeholders and prose, inconsistent types and a region left as the input had it', () => {
    expect(checkCandidate([evidence(1, [1, '#N/A'])]).problems.map((p) => p.kind)).toEqual(['error_value']);
    expect(checkCandidate([evidence(1, ['TODO: compute'])]).problems.map((p) => p.kind)).toEqual(['junk_text']);
    expect(checkCandidate([evidence(1, ['You can use the formula =SUM(A:A)'])]).problems.map((p) => p.kind)).toEqual([
      'junk_text',
    ]);
    expect(checkCandidate([evidence(1, [1, 2]), evidence(2, ['a', 'b'])]).problems.map((p) => p.kind)).toEqual([
      'inconsistent_types',
    ]);
    const same = checkCandidate([evidence(1, [1, 'x'], [1, 'x']), evidence(2, [2], [2])]);
    expect(same.problems.map((p) => p.kind)).toEqual(['unchanged']);
    // Changed on one test case only: a real edit.
    expect(checkCandidate([evidence(1, [1], [1]), evidence(2, [3], [2])]).passed).toBe(true);
    // Real text answers are not prose.
    expect(checkCandidate([evidence(1, ['Pass', 'Fail', 'John Smith'])]).passed).toBe(true);
  });

  it('allows an error value the instruction names as a result in some answer cells, never in all (57232)', () => {
    const allowedErrors = errorsNamedIn('Match across sheets.\nThe formula data output result may be "#N/A".');
    expect(allowedErrors).toEqual(['#N/A']);
    expect(checkCandidate([evidence(1, [3, '#N/A', 5.5])], [], { allowedErrors }).passed).toBe(true);
    const all = checkCandidate([evidence(1, ['#N/A', '#N/A', '#N/A'])], [], { allowedErrors });
    expect(all.problems.map((p) => p.kind)).toEqual(['error_value']);
    const other = checkCandidate([evidence(1, [3, '#VALUE!', 5.5])], [], { allowedErrors });
    expect(other.problems.map((p) => p.kind)).toEqual(['error_value']);
    expect(errorsNamedIn('The formula data output result may be "-"')).toEqual([]);
  });

  it('rejects one value repeated in every answer cell on every input (a formula that ignores its row)', () => {
    const constant = checkCandidate([evidence(1, [4, 4, 4]), evidence(2, [7, 7, 7, null]), evidence(3, [7, 7, 7])]);
    expect(constant.problems.map((p) => p.kind)).toEqual(['constant']);
    expect(constant.problems[0].detail).toMatch(/4 on input 1, 7 on input 2, 7 on input 3/);
    // Numbers equal as the scorer rounds them count as the same value.
    expect(checkCandidate([evidence(1, [1.001, 1.002, 1])]).problems.map((p) => p.kind)).toEqual(['constant']);
    // Error values everywhere are reported as errors, not also as a constant.
    expect(checkCandidate([evidence(1, ['#VALUE!', '#VALUE!', '#VALUE!'])]).problems.map((p) => p.kind)).toEqual([
      'error_value',
    ]);
    // Varying on one input is enough: the formula follows its rows there.
    expect(checkCandidate([evidence(1, ['a', 'a', 'a']), evidence(2, ['a', 'b', 'a'])]).passed).toBe(true);
    // Fewer than three written cells: one repeated value is an ordinary answer.
    expect(checkCandidate([evidence(1, ['Pass', 'Pass']), evidence(2, ['Fail', 'Fail', null])]).passed).toBe(true);
  });

  it('rejects a date written as text among dates; dates alone and text alone pass', () => {
    const day = (d: number): CellValue => ({
      kind: 'datetime',
      year: 2021,
      month: 1,
      day: d,
      hour: 0,
      minute: 0,
      second: 0,
      microsecond: 0,
    });
    const mixed = checkCandidate([evidence(1, [day(4), '2021-01-18', day(5)])]);
    expect(mixed.problems.map((p) => p.kind)).toEqual(['date_text']);
    expect(mixed.problems[0].detail).toMatch(/C2 = "2021-01-18".*datetime\.datetime/);
    const iso = checkCandidate([evidence(1, [day(4), '2021-01-18T20:57:45.962Z'])]).problems;
    expect(iso.map((p) => p.kind)).toEqual(['date_text']);
    // v7: the strptime call for the cell's full text (checkedVoteDateText.test.ts runs it).
    expect(iso[0].detail).toContain('its date is datetime.datetime.strptime(text[:10], "%Y-%m-%d")');
    expect(iso[0].detail).toContain('with its time: datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")');
    expect(checkCandidate([evidence(1, [day(4), day(5), day(6)])]).passed).toBe(true);
    expect(checkCandidate([evidence(1, ['2021-01-18', 'x'])]).passed).toBe(true);
  });

  it('rejects text written with a space at its start or end that the input did not have (230-16)', () => {
    const input = ['data', '2020-02-21 09:58:34.5 event_type="B"', ' kept as it was '];
    const cut = checkCandidate([evidence(1, ['data', '2020-02-21 09:58:34.5 ', ' kept as it was '], input)]);
    expect(cut.problems.map((p) => p.kind)).toEqual(['stray_space']);
    expect(cut.problems[0].detail).toMatch(/1 cell\(s\) .*"2020-02-21 09:58:34.5 ".*text.strip\(\)/);
    expect(checkCandidate([evidence(1, ['data', '2020-02-21 09:58:34.5', ' kept as it was '], input)]).passed).toBe(
      true,
    );
  });

  it('rejects a colour written over the values of a formatting task; a colour as an answer elsewhere passes', () => {
    // CF_8276 (v9's first run): "white" written over the hyperlink texts it was asked to colour.
    const links = ['Go to Hyperlinked sheet', 'Go to Hyperlinked sheet', null];
    const painted = checkCandidate([evidence(1, ['white', 'FFFF00', null], links)], [], { formatting: true });
    expect(painted.problems.map((p) => p.kind)).toEqual(['colour_as_value']);
    expect(painted.problems[0].detail).toMatch(
      /^2 cell\(s\) that held values now hold the name of a colour \(e\.g\. C1 = "white"\)/,
    );
    // Not a formatting task, or colours written into empty cells (38985 looks colours up): not this problem.
    expect(checkCandidate([evidence(1, ['white', 'Red', null], links)]).passed).toBe(true);
    expect(checkCandidate([evidence(1, ['Red', 'Blue'], [null, null])], [], { formatting: true }).passed).toBe(true);
    // The fill crash gets the PatternFill idiom.
    expect(crashHint("TypeError: expected <class 'openpyxl.styles.fills.Fill'>")).toMatch(
      /PatternFill\(start_color="FFFFFF00"/,
    );
    expect(crashHint('ValueError: Colors must be aRGB hex values')).toMatch(/aRGB hex colour, not a colour name/);
  });

  it('names the cells changed outside the answer region when the region itself was left as it was', () => {
    const stray = (c: CaseEvidence): CaseEvidence => ({ ...c, strayWrites: ['Before!I2:I19'] });
    const check = checkCandidate([stray(evidence(1, [1], [1])), evidence(2, [2], [2])]);
    expect(check.problems.map((p) => p.kind)).toEqual(['unchanged']);
    expect(check.problems[0].detail).toMatch(/outside the answer region instead \(Before!I2:I19, input 1\)/);
    const empty = checkCandidate([stray(evidence(1, [null, null]))]);
    expect(empty.problems[0].detail).toMatch(/every answer cell is empty; it changed cells outside .*Before!I2:I19/);
    // A region that changed passes, whatever else changed.
    expect(checkCandidate([stray(evidence(1, [3], [1]))]).passed).toBe(true);
    // The activity reads the cells changed elsewhere only for a region left empty or as the input had it.
    expect(regionLeftAlone(region(1, 'x'), region(1, 'x'))).toBe(true);
    expect(regionLeftAlone(region(null, ''), region(5, 6))).toBe(true);
    expect(regionLeftAlone(region(3, 'x'), region(1, 'x'))).toBe(false);
  });

  it('feeds the problems back with the traceback tail and the cells as written', () => {
    const check = checkCandidate([
      { ...evidence(1, [1]), error: 'Traceback\n  File "solution.py", line 3\nKeyError: \'Total\'' },
      evidence(2, ['#REF!']),
    ]);
    const text = repairMessage(check, 2, { testCase: 2, region: region('#REF!') });
    expect(text).toContain(
      '- input 1: it raised an error:\n    Traceback\n      File "solution.py", line 3\n    KeyError: \'Total\'',
    );
    expect(text).toContain('- input 2: 1 cell(s) hold Excel errors, e.g. C1 = "#REF!"');
    expect(text).toContain('The answer cells after solve(wb) on input 2: C1: "#REF!"');
    expect(text).toMatch(/complete corrected solve\(wb\)/);
  });

  it('adds the working openpyxl idiom to a crash small models make, and nothing to one it does not know', () => {
    const crash = (error: string) => repairMessage(checkCandidate([{ ...evidence(1, [1]), error }]), 1, undefined);
    expect(crash("Traceback\nAttributeError: 'Worksheet' object has no attribute 'sort'")).toMatch(
      /\n {2}Hint: openpyxl cannot sort cells\. Use the ready helpers \(no import\): rows = read_table\(ws, "A3:F37"\)/,
    );
    expect(crash("AttributeError: 'tuple' object has no attribute 'value'")).toMatch(/Hint: .*tuples of cells/);
    expect(crash("TypeError: 'NoneType' object is not subscriptable")).toMatch(/Hint: an empty cell reads as None/);
    // Text operations on a date or a number (checked-vote-v5, 290-27: cell.value[0] on a datetime).
    expect(crash("TypeError: 'datetime.datetime' object is not subscriptable")).toMatch(/Hint: the cell holds a date/);
    expect(crash("AttributeError: 'int' object has no attribute 'strip'")).toMatch(/Hint: the cell holds a date/);
    expect(crash("TypeError: '<' not supported between instances of 'NoneType' and 'int'")).toMatch(
      /Hint: the values compared or sorted are of different kinds, or empty/,
    );
    // v7: a tuple or generator used as a cell or list, a Cell used as its value, a header or sheet name as an address.
    // v8.2: sorting a range's tuple gets the table helpers' idiom.
    expect(crash("AttributeError: 'tuple' object has no attribute 'sort'")).toMatch(
      /Hint: ws\["A1:F37"\] is a tuple of cell tuples, not a list\. openpyxl cannot sort cells\..*write_table\(ws, "A3", rows\)/,
    );
    expect(crash('TypeError: tuple indices must be integers or slices, not str')).toMatch(/Hint: .*tuples of cells/);
    expect(crash("TypeError: 'generator' object is not subscriptable")).toMatch(/Hint: .*generators: list/);
    expect(crash("TypeError: 'Cell' object is not subscriptable")).toMatch(/Hint: a Cell is not its value/);
    expect(crash("ValueError: Cannot convert <Cell 'Sheet1'.A1> to Excel")).toMatch(/Hint: a Cell is not its value/);
    expect(crash("TypeError: expected string or bytes-like object, got 'Cell'")).toMatch(
      /Hint: a Cell is not its value/,
    );
    expect(crash('ValueError: orgId is not a valid coordinate or range')).toMatch(
      /Hint: ws\[\.\.\.\] takes a cell address .*"orgId" is none of these.*column_letter/,
    );
    expect(crashHint('ZeroDivisionError: division by zero')).toBeUndefined();
    expect(crash('ZeroDivisionError: division by zero')).not.toMatch(/Hint:/);
  });
});

describe('vote by agreement', () => {
  const b = (id: string, passed: boolean, ...cases: string[][]) => ({ id, passed, signature: cases });

  it('picks the agreeing majority among passing candidates, never a failing one', () => {
    const vote = choose([
      b('c1', true, ['f:1'], ['f:9']),
      b('c2', true, ['f:2'], ['f:3']),
      b('c3', true, ['f:2'], ['f:3']),
      b('c4', false, ['f:2'], ['f:3']),
    ]);
    expect(vote.chosen).toBe('c2');
    expect(vote.reason).toMatch(/2 of 3 passing candidates/);
  });

  it('prefers near-agreement (MBR), breaks ties by the earlier candidate, and chooses nothing when none passed', () => {
    expect(
      choose([b('c1', true, ['f:1', 'f:2']), b('c2', true, ['f:1', 'f:3']), b('c3', true, ['f:0', 'f:3'])]).chosen,
    ).toBe('c2');
    expect(choose([b('c1', true, ['f:1']), b('c2', true, ['f:2'])]).chosen).toBe('c1');
    const none = choose([b('c1', false, []), b('c2', false, [])]);
    expect(none.chosen).toBeUndefined();
    expect(none.reason).toMatch(/input is left unchanged/);
    expect(similarity([['a', 'b']], [['a', 'c']])).toBe(0.5);
  });

  it('stops sampling once more than half of the planned candidates agree', () => {
    expect(settled([{ passed: true }, { passed: true }], ['x', 'x'], 3)).toBe(true);
    expect(settled([{ passed: true }, { passed: true }], ['x', 'y'], 3)).toBe(false);
    expect(settled([{ passed: false }, { passed: true }], ['x', 'x'], 3)).toBe(false);
    expect(settled([{ passed: true }, { passed: true }], ['x', 'x'], 5)).toBe(false);
  });

  it('calls a split into equal groups of passing answers a tie (one more sample settles it), nothing else', () => {
    const passed = (n: number) => Array.from({ length: n }, () => ({ passed: true }));
    expect(tied(passed(2), ['x', 'y'])).toBe(true);
    expect(tied(passed(4), ['x', 'y', 'y', 'x'])).toBe(true);
    expect(tied(passed(3), ['x', 'y', 'y'])).toBe(false);
    expect(tied(passed(2), ['x', 'x'])).toBe(false);
    expect(tied(passed(1), ['x'])).toBe(false);
    // A failing candidate's answer does not count.
    expect(tied([{ passed: true }, { passed: false }], ['x', 'y'])).toBe(false);
  });
});

describe('frame and prompt', () => {
  it('takes only code that defines solve(wb), never a truncated reply', () => {
    expect(solveCodeOf('```python\ndef solve(wb):\n    pass\n```', 'stop')).toEqual({
      code: 'def solve(wb):\n    pass',
    });
    expect(solveCodeOf('```python\nprint(1)\n```', 'stop')).toEqual({
      problem: 'the code defines no function solve(wb)',
    });
    expect(solveCodeOf('The answer is 4.', 'stop')).toEqual({ problem: 'reply has no code block' });
    expect(solveCodeOf('```python\ndef solve(wb):\n', 'length')).toHaveProperty('problem');
  });

  it('runs solve(wb) on the input and saves the output; a script main block does not run', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-frame-'));
    const input = path.join(dir, 'in.xlsx');
    execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl\nwb=openpyxl.Workbook()\nwb.active['A1']=2\nwb.save(${JSON.stringify(input)})`,
    ]);
    const code =
      "def solve(wb):\n    wb.active['B1'] = wb.active['A1'].value * 21\nif __name__ == '__main__':\n    raise SystemExit('main ran')";
    const program = framedProgram(code, { input, output: path.join(dir, 'out.xlsx') });
    writeFileSync(path.join(dir, 'p.py'), program);
    execFileSync(sandboxPythonPath(), [path.join(dir, 'p.py')]);
    const read = execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl\nprint(openpyxl.load_workbook(${JSON.stringify(path.join(dir, 'out.xlsx'))}).active['B1'].value)`,
    ]);
    expect(read.toString().trim()).toBe('42');
    // openpyxl and the helpers small models use without importing them are bound in the frame.
    const unimported =
      "def solve(wb):\n    ws = wb.active\n    ws[get_column_letter(3) + '1'] = openpyxl.utils.column_index_from_string('D') + len(re.findall('a', 'aa'))";
    writeFileSync(path.join(dir, 'u.py'), framedProgram(unimported, { input, output: path.join(dir, 'o3.xlsx') }));
    execFileSync(sandboxPythonPath(), [path.join(dir, 'u.py')]);
    const c1 = execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl\nprint(openpyxl.load_workbook(${JSON.stringify(path.join(dir, 'o3.xlsx'))}).active['C1'].value)`,
    ]);
    expect(c1.toString().trim()).toBe('6');
    // A crash's traceback, formatted by the traceback module as the sandbox's kernel does (lib/sandbox/kernel.py),
    // shows the model's line, not only its number.
    const crashing = "def solve(wb):\n    ws = wb.active\n    ws['B1'] = ws['A1'].value[0]";
    writeFileSync(path.join(dir, 'c.py'), framedProgram(crashing, { input, output: path.join(dir, 'o4.xlsx') }));
    const formatted = execFileSync(sandboxPythonPath(), [
      '-c',
      `import runpy, traceback\ntry:\n    runpy.run_path(${JSON.stringify(path.join(dir, 'c.py'))})\nexcept Exception:\n    print(traceback.format_exc())`,
    ]).toString();
    expect(formatted).toMatch(/File "solution\.py", line 3, in solve\n\s+ws\['B1'\] = ws\['A1'\]\.value\[0\]/);
    // No solve: a clear error, not a silent no-op.
    writeFileSync(path.join(dir, 'q.py'), framedProgram('x = 1', { input, output: path.join(dir, 'o2.xlsx') }));
    expect(() => execFileSync(sandboxPythonPath(), [path.join(dir, 'q.py')], { stdio: 'pipe' })).toThrow(
      /defines no function solve/,
    );
  });

  it('binds the table helpers: a table sorted through read_table, clear_range and write_table, merged cells kept', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-table-'));
    const input = path.join(dir, 'in.xlsx');
    execFileSync(sandboxPythonPath(), [
      '-c',
      [
        'import openpyxl',
        'wb = openpyxl.Workbook(); ws = wb.active',
        "ws.append(['Title']); ws.merge_cells('A1:C1')",
        "for row in [['b', 2, 'x'], ['a', None, 'y'], ['c', 9, 'z']]: ws.append(row)",
        `wb.save(${JSON.stringify(input)})`,
      ].join('\n'),
    ]);
    const code = [
      'def solve(wb):',
      '    ws = wb.active',
      '    rows = read_table(ws, "A2:C4")',
      '    rows.sort(key=lambda r: (r[1] is None, r[1] or 0), reverse=True)',
      '    clear_range(ws, "A1:C4")',
      '    write_table(ws, "A2", rows)',
      '    write_table(ws, "A1", [["kept?", "merged", "merged"]])',
      '    ws["E1"] = len(read_table(ws, "A:C"))',
    ].join('\n');
    const output = path.join(dir, 'out.xlsx');
    writeFileSync(path.join(dir, 't.py'), framedProgram(code, { input, output }));
    execFileSync(sandboxPythonPath(), [path.join(dir, 't.py')]);
    const read = execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl\nws = openpyxl.load_workbook(${JSON.stringify(output)}).active\nprint([[c.value for c in r] for r in ws.iter_rows(max_col=5)])`,
    ]);
    // reverse=True puts the empty value first (its key sorts last, reversed); the merge's other cells stay unwritten.
    expect(read.toString().trim()).toBe(
      "[['kept?', None, None, None, 4], ['a', None, 'y', None, None], ['c', 9, 'z', None, None], ['b', 2, 'x', None, None]]",
    );
  });

  it('puts all static text (role, how to reply, a worked example) in the system prompt and only the task after it', () => {
    const task = {
      id: 1,
      instruction: 'Sum column B.',
      instruction_type: 'Cell-Level Manipulation',
      answer_position: 'C4',
      spreadsheet_path: 'spreadsheet/1',
    };
    const user = taskPrompt(task as never, 'VIEW');
    expect(PYTHON_SYSTEM_PROMPT.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(PYTHON_SYSTEM_PROMPT).toContain(PYTHON_INSTRUCTIONS);
    expect(PYTHON_SYSTEM_PROMPT).toContain(PYTHON_EXAMPLE);
    expect(PYTHON_SYSTEM_PROMPT).not.toMatch(/Sum column B|VIEW/);
    expect(user.indexOf('VIEW')).toBeLessThan(user.indexOf('Sum column B.'));
    expect(user).toContain('# Answer region: C4');
    expect(user).not.toContain(PYTHON_INSTRUCTIONS);
    expect(user).toMatch(/Write the complete solve\(wb\) in one ```python block\.$/);
    // The frame to start from opens the answer region's sheet (the first sheet when the position names none).
    expect(user).toContain('```python\ndef solve(wb):\n    ws = wb.worksheets[0]\n    # write the answer into C4\n```');
    const named = taskPrompt({ ...task, answer_position: "'Sales data'!B2:B9,'Other'!A1" } as never, 'VIEW');
    expect(named).toContain(
      "Start from this frame (the answer region 'Sales data'!B2:B9,'Other'!A1 is on this sheet):\n```python\ndef solve(wb):\n    ws = wb[\"Sales data\"]\n    # write the answer into B2:B9, A1\n```",
    );
    // The worked example is a complete solve(wb) the harness's extraction accepts.
    expect(solveCodeOf(PYTHON_EXAMPLE, 'stop')).toHaveProperty('code');
  });
});

describe('workbook view and answer region on real dev20 inputs', () => {
  const view = (id: string, answerPosition: string) =>
    execFileSync(sandboxPythonPath(), [
      '-c',
      workbookViewProgram(path.join(DEV20, 'spreadsheet', id, `1_${id}_input.xlsx`), answerPosition),
    ]).toString();

  it('shows cells by address with formulas and cached values, header rows and the answer region with neighbours', () => {
    const text = view('39604', 'C4');
    expect(text).toContain("## Sheet 'before' (active): used range A1:D4 (4 rows x 4 columns)");
    expect(text).toContain('B4:=(B2*1000)-(B3*1000) -> 10');
    expect(text).toContain("Answer region 'before'!C4:C4: 1 cells, 0 already filled");
    const lookup = view('50066', "Updated Data'!B5:B9");
    expect(lookup).toContain('table A1:E4, header row 1');
    expect(lookup).toContain('A5:Name');
  });

  it("names a table's header row inside the answer region, so that a program leaves it alone (230-16)", () => {
    expect(view('230-16', "'Before'!A1:A12")).toContain(
      "row 1 of the region is its table's header row: keep it as it is unless the task renames columns; the data rows start at row 2",
    );
    expect(view('39604', 'C4')).not.toContain("table's header row");
  });

  it("pairs the region's first rows with a table that repeats its headers elsewhere: the expected result, shown", () => {
    // 230-16: sheet 'After' shows the split the task asks for; the region is one column, so its table's headers count.
    expect(view('230-16', "'Before'!A1:A12")).toContain(
      [
        "sheet 'After' repeats this table's column headers at A2:B2: it may show the result the task expects; the first rows of both, this table's then that one's:",
        '  A2:2020-02-21 09:58:34.595555 event_type="BUSINESS"  =>  A3:2020-02-21 09:58:34.595555 | B3:event_type="BUSINESS"',
      ].join('\n'),
    );
    // 208-20: the 'Expected Result' block beside the data, on the same sheet (columns I:N against A:F).
    expect(view('208-20', "'Q'!A1:F37")).toMatch(
      /sheet 'Q' repeats this table's column headers at I2:N2.*\n {2}A3:\^NSEI .* {2}=> {2}I3:AXISBANK\.NS/,
    );
    // No other table with the same headers: no such line.
    for (const [id, position] of [
      ['39604', 'C4'],
      ['18645', "'Opportunities'!G2:G3"],
      ['416-15', "'Sheet1'!A2:A19"],
    ])
      expect(view(id, position), id).not.toContain('repeats this table');
  });

  it('keeps a big sheet within the budget: head and tail rows and a column profile', () => {
    const text = view('57232', "'Sea Freight Rates'!H2:H191");
    expect(text.length).toBeLessThan(12_000);
    expect(text).toMatch(/not shown/);
    expect(text).toMatch(/column [A-Z]+ '.*': \d+ values/);
  });

  it('does not repeat answer rows the sheet already shows in full', () => {
    const text = view('17251', 'C2:C11');
    expect(text.match(/A2:abc \| B2:1\.1/g)).toHaveLength(1);
    expect(text).toContain('(its rows and neighbouring columns are shown in full in the sheet above)');
  });

  it("gives the answer's sheet the budget; each other sheet gets a short share", () => {
    const text = view('18645', "'Opportunities'!G2:G3");
    expect(text.length).toBeLessThan(VIEW_BUDGET_CHARS + 2_000); // column profiles come on top of the row budget
    const sheetOf = (name: string) => text.split('\n## ').find((s) => s.startsWith(`Sheet '${name}'`)) ?? '';
    expect(sheetOf('Lawyers').length).toBeLessThan(1_200);
    expect(sheetOf('Opportunities')).toMatch(/G1:/);
  });

  it('reads the answer region as the scorer does (host side, no answers)', async () => {
    const read = await readRegion(path.join(DEV20, 'spreadsheet', '39604', '1_39604_input.xlsx'), 'C4');
    expect(read).toEqual({ cells: [{ address: 'C4', value: null, uncachedFormula: false }], missingSheets: [] });
    const missing = await readRegion(path.join(DEV20, 'spreadsheet', '39604', '1_39604_input.xlsx'), "'Nope'!A1");
    expect(missing.missingSheets).toEqual(['Nope']);
  });
});

describe('a repair that repeats the failed reply', () => {
  const failed = '```python\ndef solve(wb):\n    wb.active["A1"] = 1\n```';
  const history = (reply: string) => [
    { role: 'system' as const, content: 'S' },
    { role: 'user' as const, content: 'U' },
    { role: 'assistant' as const, content: reply },
    { role: 'user' as const, content: 'It did not pass: fix it.' },
  ];

  it('is not run again: the same code (whitespace aside) becomes a problem', () => {
    const again = solveCodeOf('```python\ndef solve(wb):\n    wb.active["A1"]  =  1\n```', 'stop');
    expect(repeatedOrFound(again, 1, history(failed), solveCodeOf)).toEqual({
      problem: 'the repair repeats the code that failed the checks, unchanged',
      repeated: true,
    });
  });

  it('a changed repair, a first reply and a reply without code pass through as they are', () => {
    const changed = solveCodeOf('```python\ndef solve(wb):\n    wb.active["A1"] = 2\n```', 'stop');
    expect(repeatedOrFound(changed, 1, history(failed), solveCodeOf)).toEqual(changed);
    const first = solveCodeOf(failed, 'stop');
    expect(repeatedOrFound(first, 0, history(failed), solveCodeOf)).toEqual(first);
    expect(repeatedOrFound({ problem: 'no code' }, 1, history(failed), solveCodeOf)).toEqual({ problem: 'no code' });
    // The failed reply had no code (a no-code repair): anything with code is new.
    expect(repeatedOrFound(first, 1, history('I cannot do that.'), solveCodeOf)).toEqual(first);
  });
});

describe('evidence that could not be read', () => {
  it('gives the fallback in its place and keeps what and why for the check record', async () => {
    const missing = new MissingEvidence();
    const notes = await Promise.reject<string[]>(new Error('zip: bad central directory')).catch(
      missing.or('the formula reference notes', [] as string[]),
    );
    expect(notes).toEqual([]);
    expect(await Promise.resolve(['A1']).catch(missing.or('cells changed elsewhere', [] as string[]))).toEqual(['A1']);
    expect(missing.reasons).toEqual(['the formula reference notes: zip: bad central directory']);
  });
});

describe('Python slips mended before a candidate runs (checked-vote-v10)', () => {
  it("maps chr(65 + col) of a column counted from 1 to get_column_letter(col), and leaves a 0-based loop's alone", () => {
    const slip = [
      'def solve(wb):',
      '    ws = wb["Sheet1"]',
      '    for col in range(1, ws.max_column + 1):',
      '        for row in range(1, ws.max_row + 1):',
      '            cell = ws[f"{chr(65 + col)}{row}"]',
      '            v = ws[chr(ord("A") + col) + str(row)].value',
    ].join('\n');
    const mended = mendPythonSlips(slip);
    expect(mended.code).toContain('ws[f"{get_column_letter(col)}{row}"]');
    expect(mended.code).toContain('ws[get_column_letter(col) + str(row)]');
    expect(mended.code).not.toContain('chr(');
    expect(mended.mends).toEqual(['chr(65 + col) → get_column_letter(col): col counts columns from 1']);
    const zeroBased = 'def solve(wb):\n    for c in range(0, 5):\n        wb.active[f"{chr(65 + c)}1"] = c\n';
    expect(mendPythonSlips(zeroBased)).toEqual({ code: zeroBased, mends: [] });
    const minus = 'def solve(wb):\n    for c in range(1, 5):\n        wb.active[f"{chr(65 + c - 1)}1"] = c\n';
    expect(mendPythonSlips(minus).mends).toEqual([]);
    expect(solveCodeOf('```python\n' + slip + '\n```', 'stop')).toMatchObject({ mends: mended.mends });
  });
});
