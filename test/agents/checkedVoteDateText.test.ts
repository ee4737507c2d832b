import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dateTextParse } from '../../benchmarks/spreadsheetbench/agents/checkedVote/dateText';
import { crashHint } from '../../benchmarks/spreadsheetbench/agents/checkedVote/crashHints';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

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
