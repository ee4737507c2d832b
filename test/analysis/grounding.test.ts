import { describe, expect, it } from 'vitest';
import { groundAnswer } from '../../analysis/grounding/ground';
import { numbersInProse } from '../../analysis/grounding/numbers';
import type { SourceText } from '../../analysis/grounding/sources';

const stdout = (text: string, callId = 'call-1'): SourceText => ({
  kind: 'stdout',
  tool: 'python_execute',
  stepId: 't1-s0',
  callId,
  text,
});
const table = (file: string, text: string): SourceText => ({
  kind: 'table',
  tool: 'python_execute',
  stepId: 't1-s0',
  callId: 'call-1',
  file,
  text,
});
const ungrounded = (g: ReturnType<typeof groundAnswer>) => g.numbers.filter((n) => !n.grounded).map((n) => n.text);

describe('numbers in an answer', () => {
  it('reads formatting: separators, decimals, percent, scale words and signs', () => {
    const n = numbersInProse('Revenue was $1,234.5 (12% up), about 1.2M visits, 3 million rows, and it fell by -5.');
    expect(n.map((x) => [x.text, x.value, x.decimals, x.percent])).toEqual([
      ['1,234.5', 1234.5, 1, false],
      ['12%', 12, 0, true],
      ['1.2M', 1_200_000, 1, false],
      ['3 million', 3_000_000, 0, false],
      ['-5', -5, 0, false],
    ]);
  });

  it('leaves out list numbering, dates, times, versions, identifiers, ordinals, footnotes, links and code', () => {
    const text = [
      '1. Load sales_2023.csv',
      '2) Compute Q3 totals on 2024-01-05 at 10:30 with pandas v2.2 (COVID-19 era, 3rd try) [4]',
      'See [the file](files/report_7.csv) or https://example.com/a/99.',
      '```python',
      'print(df.amount.sum() * 100)',
      '```',
      'Inline `x = 5` too. The answer: 47.',
    ].join('\n');
    expect(numbersInProse(text).map((n) => n.text)).toEqual(['47']);
  });
});

describe('grounding an answer against its tool outputs', () => {
  it('grounds every number that comes from stdout or a table', () => {
    const g = groundAnswer('North sold **15** and south **32**: **47** in total.', [
      stdout('47\n'),
      table('viz/by_region.csv', 'region,amount\nnorth,15\nsouth,32\n'),
    ]);
    expect(g.total).toBe(3);
    expect(g.grounded).toBe(3);
    const north = g.numbers.find((n) => n.text === '15')!;
    expect(north.source).toMatchObject({
      kind: 'table',
      file: 'viz/by_region.csv',
      line: 2,
      excerpt: 'north,15',
      callId: 'call-1',
    });
    expect(g.numbers.find((n) => n.text === '47')!.source).toMatchObject({ kind: 'stdout', line: 1, excerpt: '47' });
  });

  it('marks exactly the one invented number', () => {
    const g = groundAnswer('The total is **47**, up 12% from last year, across 3 regions.', [
      stdout('47\nregions: 3\n'),
    ]);
    expect(ungrounded(g)).toEqual(['12%']);
    expect(g.grounded).toBe(2);
  });

  it('allows rounding to the shown precision and formatting, never more precision than the output shows', () => {
    const out = [stdout('total 1234.49\nshare 0.1204\nvisits 1234567\n')];
    expect(ungrounded(groundAnswer('Total 1,234.5, share 12%, visits 1.2M, total about 1,234.', out))).toEqual([]);
    // 1234.49 does not show 1234.487's third decimal; 13% is not a rounding of 12.04%.
    expect(ungrounded(groundAnswer('Total 1,234.487 and share 13%.', out))).toEqual(['1,234.487', '13%']);
    expect(ungrounded(groundAnswer('It fell by 5 (from -5).', [stdout('change: -5\n')]))).toEqual([]);
  });

  it('reads scientific notation and percent output', () => {
    const g = groundAnswer('About 1.23 million, 12.5% of all.', [stdout('1.234568e+06\nratio 12.5%\n')]);
    expect(ungrounded(g)).toEqual([]);
  });

  it('takes numbers the user gave in the question as given', () => {
    const g = groundAnswer('The top 5 regions in 2023 sold 47.', [
      stdout('47\n'),
      { kind: 'question', text: 'Which are the top 5 regions in 2023?' },
    ]);
    expect(ungrounded(g)).toEqual([]);
    expect(g.numbers[0].source?.kind).toBe('question');
  });

  it('says so when the answer has no numbers, or only numbers in code', () => {
    expect(groundAnswer('North sold the most.', [stdout('47\n')])).toMatchObject({
      total: 0,
      note: expect.stringMatching(/no numbers/),
    });
    const code = groundAnswer('Run this:\n```python\nprint(47 + 3)\n```', [stdout('50\n')]);
    expect(code).toMatchObject({ total: 0, inCode: 2, note: expect.stringMatching(/2 in code blocks/) });
  });

  it('says so when the turn produced nothing to check against', () => {
    const g = groundAnswer('The total is 47.', [{ kind: 'question', text: 'What is the total?' }]);
    expect(g).toMatchObject({ total: 1, grounded: 0, note: expect.stringMatching(/printed and wrote nothing/) });
  });
});
