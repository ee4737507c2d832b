import { describe, expect, it } from 'vitest';
import { asksPerGroup, labelledValues, missingGroups } from '../../analysis/grounding/coverage';

/** The 1.5B's a21 under `direct` (run at 95a52fc): asked four totals, answered one, and the cross-check agreed. */
const A21_QUESTION = 'What is the total amount per region in sales.csv?\n\n(Files: sales.csv)';
const A21_SECOND =
  'Total amount per region:\nregion\neast     647\nnorth    407\nsouth    409\nwest     525\nName: amount, dtype: int64';

describe('an answer giving some of the values a question asks for', () => {
  it('asks per group: per/by/for each a noun; not a ratio per row, per cent, nor "by how much"', () => {
    expect(asksPerGroup(A21_QUESTION)).toBe(true);
    expect(asksPerGroup('Make a bar chart of the total amount by region from sales.csv.')).toBe(true);
    expect(asksPerGroup('What is the mean income for each segment?')).toBe(true);
    expect(asksPerGroup('What is the average number of units per row in sales.csv (2 decimals)?')).toBe(false);
    expect(asksPerGroup('Which product has the highest total amount, and by how much does it lead the second?')).toBe(
      false,
    );
    expect(asksPerGroup('What is the total amount in sales.csv?')).toBe(false);
  });

  it("reads a pandas Series, 'label: value' lines and a DataFrame's rows as labelled values; headers and dtype lines are not", () => {
    expect(labelledValues(A21_SECOND).map((g) => [g.label, g.value.value])).toEqual([
      ['east', 647],
      ['north', 407],
      ['south', 409],
      ['west', 525],
    ]);
    expect(labelledValues('north: 15\nTotal for south = 32.5').map((g) => [g.label, g.value.value])).toEqual([
      ['north', 15],
      ['Total for south', 32.5],
    ]);
    expect(labelledValues('  region  amount\n0   east     647\n1  north     407').map((g) => g.label)).toEqual([
      'east',
      'north',
    ]);
    expect(labelledValues('month\n2024-01    150\n2024-02    98').map((g) => [g.label, g.value.value])).toEqual([
      ['2024-01', 150],
      ['2024-02', 98],
    ]);
    expect(labelledValues('     month  amount\n0  2024-01     527\n1  2024-02     833').map((g) => g.label)).toEqual([
      '2024-01',
      '2024-02',
    ]);
    expect(labelledValues('1988\nrows: 24 of 30')).toEqual([]);
  });

  it("a21: '407' for the total per region leaves out east, south and west", () => {
    expect(missingGroups(A21_QUESTION, '407', A21_SECOND, [])).toEqual(['east', 'south', 'west']);
    expect(missingGroups(A21_QUESTION, 'North: **407**, east: 647.', A21_SECOND, [])).toEqual(['south', 'west']);
  });

  it('every value stated, to the precision written, is complete', () => {
    const all = 'East 647, north 407, south 409 and west 525.';
    expect(missingGroups(A21_QUESTION, all, A21_SECOND, [])).toEqual([]);
    expect(missingGroups('Mean price per store?', 'A: 1.2, B: 3.5', 'A    1.234\nB    3.456', [])).toEqual([]);
  });

  it('a table the turn saved with the values counts: the answer may point at it', () => {
    const table = 'region,amount\neast,647\nnorth,407\nsouth,409\nwest,525\n';
    expect(missingGroups(A21_QUESTION, 'North leads with 407; see the table.', A21_SECOND, [table])).toEqual([]);
    expect(missingGroups(A21_QUESTION, '407', A21_SECOND, ['region,amount\nnorth,407\n'])).toEqual([
      'east',
      'south',
      'west',
    ]);
  });

  it('nothing to read against: one value printed, a question asking no groups, or a dump of rows', () => {
    expect(missingGroups(A21_QUESTION, '407', 'north    407', [])).toEqual([]);
    expect(missingGroups('What is the total amount?', '407', A21_SECOND, [])).toEqual([]);
    const dump = Array.from({ length: 50 }, (_, i) => `row${i}    ${i * 3}`).join('\n');
    expect(missingGroups('Amount per day?', '3', dump, [])).toEqual([]);
  });
});
