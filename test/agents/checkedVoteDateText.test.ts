import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateTextParse } from '../../benchmarks/spreadsheetbench/agents/checkedVote/dateText';
import { crashHint } from '../../benchmarks/spreadsheetbench/agents/checkedVote/crashHints';
import { framedProgram } from '../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import { evaluateTestCase } from '../../benchmarks/spreadsheetbench/scoring';
import { sandboxPythonPath } from '../../lib/sandbox/paths';
import { DEV20 } from '../helpers/datasets';

/** Runs each call in the sandbox's Python with `text` bound, giving back the datetime's isoformat (or the error). */
function evaluate(calls: { text: string; call: string }[]): string[] {
  const program = [
    'import datetime, json, sys',
    'out = []',
    'for text, call in json.loads(sys.argv[1]):',
    '    try:',
    '        out.append(eval(call, {"datetime": datetime, "text": text}).isoformat())',
    '    except Exception as e:',
    '        out.append(f"{type(e).__name__}: {e}")',
    'print(json.dumps(out))',
  ].join('\n');
  const args = JSON.stringify(calls.map((c) => [c.text, c.call]));
  return JSON.parse(execFileSync(sandboxPythonPath(), ['-c', program, args], { encoding: 'utf8' })) as string[];
}

describe('the strptime call for a date written as text', () => {
  const texts = [
    '2021-01-18T20:57:45.962Z',
    '2021-01-18T20:57:45Z',
    '2021-01-18 20:57',
    '2021-1-8',
    ' 2021-01-18 ',
    '18/01/2021',
    '01/18/2021',
    '03.04.21',
  ];

  it('reads the date (and the time) of every shape the date-text check recognises, as Python does', () => {
    const parses = texts.map((text) => ({ text, parse: dateTextParse(text)! }));
    expect(parses.every((p) => p.parse !== undefined)).toBe(true);
    const dates = evaluate(parses.map((p) => ({ text: p.text, call: p.parse.date })));
    expect(dates).toEqual([
      '2021-01-18T00:00:00',
      '2021-01-18T00:00:00',
      '2021-01-18T00:00:00',
      '2021-01-08T00:00:00',
      '2021-01-18T00:00:00',
      '2021-01-18T00:00:00',
      '2021-01-18T00:00:00',
      '2021-04-03T00:00:00',
    ]);
    const withTime = parses.filter((p) => p.parse.dateTime);
    expect(withTime.map((p) => p.text)).toEqual([
      '2021-01-18T20:57:45.962Z',
      '2021-01-18T20:57:45Z',
      '2021-01-18 20:57',
    ]);
    expect(evaluate(withTime.map((p) => ({ text: p.text, call: p.parse.dateTime! })))).toEqual([
      '2021-01-18T20:57:45.962000',
      '2021-01-18T20:57:45',
      '2021-01-18T20:57:00',
    ]);
    // 03.04.21 could be 3 April or 4 March: both readings are given.
    const ambiguous = dateTextParse('03.04.21')!;
    expect(evaluate([{ text: '03.04.21', call: ambiguous.otherReading! }])).toEqual(['2021-03-04T00:00:00']);
    expect(dateTextParse('18/01/2021')!.otherReading).toBeUndefined();
    expect(dateTextParse('Jan 18')).toBeUndefined();
  });

  it('is the hint for a strptime whose format does not match the text', () => {
    expect(crashHint(`ValueError: time data '2021-01-18T20:57:45.962Z' does not match format '%Y-%m-%d'`)).toContain(
      'its date is datetime.datetime.strptime(text[:10], "%Y-%m-%d")',
    );
    expect(crashHint('ValueError: unconverted data remains: .962Z')).toMatch(/format must match the text exactly/);
  });
});

describe("the frame stores ISO date text among dates as a date, as Excel enters it (416-15's inputs)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-date-entry-'));
  const runFramed = (code: string, n: number, name: string) => {
    const input = path.join(DEV20, 'spreadsheet', '416-15', `${n}_416-15_input.xlsx`);
    const output = path.join(dir, `${name}-${n}.xlsx`);
    writeFileSync(path.join(dir, `${name}.py`), framedProgram(code, { input, output }));
    const printed = execFileSync(sandboxPythonPath(), [path.join(dir, `${name}.py`)], { encoding: 'utf8' });
    return { input, output, printed };
  };
  const answer = (n: number) => path.join(DEV20, 'spreadsheet', '416-15', `${n}_416-15_answer.xlsx`);
  // The 1.5B's cut, as its candidates wrote it: the text before the "T".
  const cut = [
    'def solve(wb):',
    '    ws = wb["Sheet1"]',
    '    for row in range(2, ws.max_row + 1):',
    '        value = ws.cell(row=row, column=1).value',
    '        if isinstance(value, str) and "T" in value:',
    '            ws.cell(row=row, column=1).value = value.split("T")[0]',
  ].join('\n');

  it('passes every test case with the text cut, and says which cells it stored', async () => {
    // The control: the cut kept as text (openpyxl alone) fails the scorer.
    const asText = path.join(dir, 'as-text.xlsx');
    execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl\nwb = openpyxl.load_workbook(${JSON.stringify(path.join(DEV20, 'spreadsheet', '416-15', '1_416-15_input.xlsx'))})\nws = wb["Sheet1"]\nfor r in range(2, ws.max_row + 1):\n    v = ws.cell(row=r, column=1).value\n    if isinstance(v, str): ws.cell(row=r, column=1).value = v.split("T")[0]\nwb.save(${JSON.stringify(asText)})`,
    ]);
    const control = { answerPath: answer(1), outputPath: asText, answerPosition: "'Sheet1'!A2:A19" };
    expect((await evaluateTestCase(control)).pass).toBe(false);
    for (const n of [1, 2, 3]) {
      const { output, printed } = runFramed(cut, n, 'cut');
      expect(printed).toContain(
        'sheetbench: 11 date text(s) stored as dates, as Excel enters them: Sheet1!A7, Sheet1!A8',
      );
      const verdict = await evaluateTestCase({
        answerPath: answer(n),
        outputPath: output,
        answerPosition: "'Sheet1'!A2:A19",
      });
      expect(verdict.pass, `test case ${n}`).toBe(true);
    }
  });

  it('leaves text the program did not write, text with a time, and date text in a column without dates', async () => {
    const code = [
      'def solve(wb):',
      '    ws = wb["Sheet1"]',
      '    ws["A8"] = "2021-01-18 20:53"', // a time: not stored as a date
      '    ws["B2"] = "2021-01-18"', // column B holds no date
      '    ws["A9"] = "2021-02-30"', // no such day
      '    ws["A10"] = "2021-01-20"',
      '    ws["A10"].number_format = "@"', // formatted as Text: Excel keeps the text
    ].join('\n');
    const { output, printed } = runFramed(code, 1, 'left');
    expect(printed).toBe('');
    const read = execFileSync(
      sandboxPythonPath(),
      [
        '-c',
        `import openpyxl\nws = openpyxl.load_workbook(${JSON.stringify(output)})["Sheet1"]\nprint(repr([ws["A7"].value, ws["A8"].value, ws["B2"].value, ws["A9"].value, ws["A10"].value]))`,
      ],
      { encoding: 'utf8' },
    );
    expect(read.trim()).toBe(
      "['2021-01-18T20:57:45.962Z', '2021-01-18 20:53', '2021-01-18', '2021-02-30', '2021-01-20']",
    );
  });

  it('leaves date text that the input already held, among dates', () => {
    const input = path.join(dir, 'held.xlsx');
    execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl\nwb = openpyxl.load_workbook(${JSON.stringify(path.join(DEV20, 'spreadsheet', '416-15', '1_416-15_input.xlsx'))})\nwb["Sheet1"]["A3"] = "2021-05-04"\nwb.save(${JSON.stringify(input)})`,
    ]);
    const program = path.join(dir, 'held.py');
    const code = 'def solve(wb):\n    wb["Sheet1"]["A3"] = "2021-05-04"\n    wb["Sheet1"]["A4"] = "2019-11-11"\n';
    writeFileSync(program, framedProgram(code, { input, output: path.join(dir, 'held-out.xlsx') }));
    // A4 held a date and is written as text: stored; A3 held this very text: written back as it was.
    expect(execFileSync(sandboxPythonPath(), [program], { encoding: 'utf8' }).trim()).toBe(
      'sheetbench: 1 date text(s) stored as dates, as Excel enters them: Sheet1!A4',
    );
  });
});
