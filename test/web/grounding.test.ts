import { describe, expect, it } from 'vitest';
import { groundingSummary, locateNumbers, sourceTitle } from '../../web/lib/grounding.js';

const n = (text: string, grounded = true) => ({ text, grounded });

describe('marking grounded numbers in a rendered answer', () => {
  it('finds each number in order across the text pieces of the rendered HTML, standing alone', () => {
    // "North sold **15** and south **32**: **47** in total (v1.5 of 2015)." rendered: bold pieces split the text.
    const pieces = ['North sold ', '15', ' and south ', '32', ': ', '47', ' in total (v1.5 of 2015).'];
    const found = locateNumbers(pieces, [n('15'), n('32'), n('47')]);
    expect(found.map((f) => [f.piece, f.start, f.end])).toEqual([
      [1, 0, 2],
      [3, 0, 2],
      [5, 0, 2],
    ]);
  });

  it('does not take a number inside a longer one, a word or a version, and skips one it cannot find', () => {
    const found = locateNumbers(['Q15 is 150 units, v1.5, then 1.5 and 15.'], [n('150'), n('1.5'), n('99'), n('15')]);
    expect(found.map((f) => [f.number.text, f.start])).toEqual([
      ['150', 7],
      ['1.5', 29],
      ['15', 37],
    ]);
  });

  it('says where a grounded number came from, and that an ungrounded one was not found', () => {
    expect(
      sourceTitle({
        text: '15',
        grounded: true,
        source: {
          kind: 'table',
          tool: 'python_execute',
          stepId: 't1-s0',
          file: 'viz/by_region.csv',
          line: 2,
          excerpt: 'north,15',
        },
      }),
    ).toBe('table viz/by_region.csv written by python_execute, step t1-s0, line 2: north,15');
    expect(sourceTitle({ text: '5', grounded: true, source: { kind: 'question', excerpt: 'top 5' } })).toBe(
      'Given in the question',
    );
    expect(sourceTitle({ text: '12%', grounded: false })).toBe(
      'Not found in any output of this turn\u2019s code or tools',
    );
    expect(groundingSummary({ total: 2, grounded: 1 })).toBe(
      '1 of 2 numbers found in this turn\u2019s tool outputs; 1 not found (marked)',
    );
    expect(groundingSummary({ total: 0, grounded: 0, note: 'The answer states no numbers: nothing to check.' })).toBe(
      'The answer states no numbers: nothing to check.',
    );
  });
});
