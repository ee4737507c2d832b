/** A cell value as plain text (cellText): what the checked-vote agent matches against other cells' texts. */
import { describe, expect, it } from 'vitest';
import { cellText, dayToString, describeValue } from '../../benchmarks/workbook/cellValue';
import { diffValue } from '../../benchmarks/workbook/diffValue';

const datetime = (hour: number, minute = 0, second = 0) =>
  ({ kind: 'datetime', year: 2024, month: 3, day: 7, hour, minute, second, microsecond: 0 }) as const;

describe('cellText', () => {
  it('reads as a user sees the cell: empty as nothing, a midnight datetime as its day', () => {
    expect(cellText(null)).toBe('');
    expect(cellText('Region')).toBe('Region');
    expect(cellText(12.5)).toBe('12.5');
    expect(cellText(true)).toBe('true');
    expect(cellText({ kind: 'date', year: 2024, month: 3, day: 7 })).toBe('2024-03-07');
    expect(cellText(datetime(0))).toBe('2024-03-07');
    expect(cellText(datetime(9, 5, 30))).toBe('2024-03-07 09:05:30');
    expect(cellText({ kind: 'time', hour: 7, minute: 5, second: 9, microsecond: 0 })).toBe('07:05:09');
    expect(cellText({ kind: 'timedelta', days: 1, seconds: 30, microseconds: 0 })).toBe('1d 30s 0µs');
  });

  it('spells the day as the reasons and the cell diffs do', () => {
    expect(dayToString({ year: 987, month: 1, day: 2 })).toBe('987-01-02');
    expect(describeValue(datetime(9, 5, 30))).toBe('datetime(2024-03-07 09:05:30)');
    expect(diffValue(datetime(0))).toEqual({ value: '2024-03-07T00:00:00', type: 'datetime' });
  });
});
