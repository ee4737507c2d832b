import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compareWithProgram, pickByOperation } from '../../analysis/grounding/crossCheck';
import { isolatedPython, runArguments } from '../../analysis/conversation/isolatedProgram';
import { SECOND_PROGRAM_AGENT } from '../../analysis/conversation/crossCheckPrompts';

describe('an answer compared with a second program', () => {
  it('agrees when every number of the answer is one the program printed, to the precision written', () => {
    expect(compareWithProgram('The total is **1,988**.', 'total: 1988.0', 'What is the total amount?')).toEqual({
      verdict: 'agree',
      how: 'answer-in-program',
    });
    expect(compareWithProgram('The average is 4.42.', '4.416666666', 'average (2 decimals)?').verdict).toBe('agree');
  });

  it('agrees when every number the program printed is in the answer, which says more', () => {
    expect(compareWithProgram('1988 in total over 24 rows.', 'Total amount: 1988', 'total?')).toEqual({
      verdict: 'agree',
      how: 'program-in-answer',
    });
  });

  it('disagrees on counts answered for sums, naming the numbers the program did not compute', () => {
    expect(compareWithProgram('North: **2**, south: **1**.', 'north 15\nsouth 32', 'total per region?')).toEqual({
      verdict: 'disagree',
      unmatched: ['2', '1'],
    });
  });

  it("leaves out numbers the question gives ('2 decimals', 'top 5')", () => {
    expect(compareWithProgram('Rounded to 2 decimals: 4.42', '4.42', 'average, 2 decimals?').verdict).toBe('agree');
    expect(compareWithProgram('The top 5 are listed.', '5', 'name the top 5')).toMatchObject({
      verdict: 'inconclusive',
    });
  });

  it('finds nothing to compare: no number in the answer, none printed, or a dump of hundreds', () => {
    expect(compareWithProgram('Apples lead.', '12', 'which?')).toMatchObject({ verdict: 'inconclusive' });
    expect(compareWithProgram('It is 47.', 'done', 'total?')).toMatchObject({
      verdict: 'inconclusive',
      why: 'the second program printed no number',
    });
    const dump = Array.from({ length: 500 }, (_, i) => String(i)).join('\n');
    expect(compareWithProgram('It is 42.', dump, 'total?')).toMatchObject({
      verdict: 'inconclusive',
      why: 'the second program printed 500 numbers, not a result',
    });
  });
});

describe('the operation check between two disagreeing programs', () => {
  const counts = "print(df['region'].value_counts())";
  const sums = "print(df.groupby('region')['amount'].sum())";
  it('trusts the one that summed when the other counted rows for a total', () => {
    expect(pickByOperation('total amount per region?', [counts], [sums])).toMatchObject({
      pick: 'second',
      first: { used: 'value_counts', kind: 'aggregate' },
    });
    expect(pickByOperation('total amount per region?', [sums], [counts]).pick).toBe('first');
  });
  it('cannot choose when both did the right operation, or both the wrong one', () => {
    expect(pickByOperation('total amount?', [sums], [sums]).pick).toBe('neither');
    expect(pickByOperation('total amount?', [counts], [counts]).pick).toBe('neither');
  });
});

describe("the second program's own namespace", () => {
  it("wraps only the second program's python_execute code, keeping the other arguments", () => {
    const args = { code: 'print(1)', timeout: 5 };
    expect(runArguments('main', 'python_execute', args)).toBe(args);
    expect(runArguments(SECOND_PROGRAM_AGENT, 'node_execute', args)).toBe(args);
    expect(runArguments(SECOND_PROGRAM_AGENT, 'python_execute', args)).toEqual({
      code: isolatedPython('print(1)'),
      timeout: 5,
    });
  });
  it("runs code holding quotes, backslashes, non-ASCII and line breaks as written, without the caller's names", () => {
    const code = 'print("a\\tb", \'é\')\n# """ end\nprint(\'x\' in dir())';
    const out = execFileSync('/usr/bin/python3', ['-c', `x = 1\n${isolatedPython(code)}`], { encoding: 'utf8' });
    expect(out).toBe('a\tb é\nFalse\n');
  });
  it('leaves arguments without code as the model sent them (the tool reports them)', () => {
    expect(runArguments(SECOND_PROGRAM_AGENT, 'python_execute', { code: 3 })).toEqual({ code: 3 });
    expect(runArguments(SECOND_PROGRAM_AGENT, 'python_execute', null)).toBeNull();
  });
});
