/** Cell values as Excel shows them under their number format (what the task page's grid displays). */
import { describe, expect, it } from 'vitest';
import { formatCell, generalNumber } from '../../benchmarks/spreadsheetbench/grid/numberFormat';
import type { PyDateTime } from '../../benchmarks/workbook/cellValue';

const dt = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0): PyDateTime => ({
  kind: 'datetime',
  year,
  month,
  day,
  hour,
  minute,
  second,
  microsecond: 0,
});

describe('number formats', () => {
  it('General fits 11 characters like Excel', () => {
    expect(generalNumber(1234.5)).toBe('1234.5');
    expect(generalNumber(1 / 3)).toBe('0.333333333');
    expect(generalNumber(0.1 + 0.2)).toBe('0.3');
    expect(generalNumber(-0.5)).toBe('-0.5');
    expect(generalNumber(123456789012)).toBe('1.23457E+11');
    expect(generalNumber(42)).toBe('42');
    expect(formatCell(2.5, 'General')).toBe('2.5');
  });

  it('decimals, thousands, scaling, percent, scientific, currency and literal text', () => {
    expect(formatCell(3.14159, '0.00')).toBe('3.14');
    expect(formatCell(-2, '0.00')).toBe('-2.00');
    expect(formatCell(1234567.89, '#,##0')).toBe('1,234,568');
    expect(formatCell(-1234.5, '#,##0.00')).toBe('-1,234.50');
    expect(formatCell(1234567, '#,##0,')).toBe('1,235');
    expect(formatCell(0.256, '0%')).toBe('26%');
    expect(formatCell(0.125, '0.0%')).toBe('12.5%');
    expect(formatCell(12345, '0.00E+00')).toBe('1.23E+04');
    expect(formatCell(1234.5, '"$"#,##0.00')).toBe('$1,234.50');
    expect(formatCell(1234.5, '[$€-407] #,##0.00')).toBe('€ 1,234.50');
    expect(formatCell(-5, '#,##0.00;(#,##0.00)')).toBe('(5.00)');
    expect(formatCell(-5, '#,##0.00;[Red](#,##0.00)')).toBe('(5.00)');
    expect(formatCell(0, '0.00;-0.00;"zero"')).toBe('zero');
    expect(formatCell(2, '0.0" kg"')).toBe('2.0 kg');
    expect(formatCell(0.5, '#.##')).toBe('.5');
    expect(formatCell(7, '000')).toBe('007');
  });

  it('text, booleans and empty cells', () => {
    expect(formatCell('abc', 'General')).toBe('abc');
    expect(formatCell('abc', '@')).toBe('abc');
    expect(formatCell('a', '@" units"')).toBe('a units');
    expect(formatCell('n/a', '0.00;-0.00;0;"<"@">"')).toBe('<n/a>');
    expect(formatCell(true, 'General')).toBe('TRUE');
    expect(formatCell(false, '0')).toBe('FALSE');
    expect(formatCell(null, '0.00')).toBe('');
  });

  it('dates and times', () => {
    const d = dt(2024, 3, 5, 14, 7, 9);
    expect(formatCell(d, 'yyyy-mm-dd')).toBe('2024-03-05');
    expect(formatCell(d, 'mm-dd-yy')).toBe('03-05-24');
    expect(formatCell(d, 'm/d/yyyy')).toBe('3/5/2024');
    expect(formatCell(d, 'd-mmm-yy')).toBe('5-Mar-24');
    expect(formatCell(d, 'mmmm d, yyyy')).toBe('March 5, 2024');
    expect(formatCell(d, 'dddd')).toBe('Tuesday');
    expect(formatCell(d, 'h:mm AM/PM')).toBe('2:07 PM');
    expect(formatCell(d, 'hh:mm:ss')).toBe('14:07:09');
    expect(formatCell(d, 'm/d/yy h:mm')).toBe('3/5/24 14:07');
    expect(formatCell({ kind: 'time', hour: 9, minute: 30, second: 0, microsecond: 0 }, 'h:mm')).toBe('9:30');
    expect(formatCell({ kind: 'timedelta', days: 1, seconds: 3723, microseconds: 0 }, '[h]:mm:ss')).toBe('25:02:03');
  });
});
