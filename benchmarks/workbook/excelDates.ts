/**
 * openpyxl's number-format type inference (styles/numbers.py is_date_format / is_timedelta_format) and its
 * serial → datetime conversion (utils/datetime.py from_excel), reproduced for data_only reading.
 */
import type { CellValue, PyDateTime, PyTimedelta } from './cellValue';
import { daysFromCivil } from './cellValue';
import { pyRound } from './pyNumber';

/** openpyxl BUILTIN_FORMATS entries that are date/time formats (ids absent from BUILTIN_FORMATS are not dates). */
const BUILTIN_DATE_FORMATS: Record<number, string> = {
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
};

const STRIP_RE = /".*?"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]/g;
const DATE_CHAR_RE = /(?<![_\\])[dmhysDMHYS]/;
const TIMEDELTA_RE = /\[hh?\](:mm(:ss(\.0*)?)?)?|\[mm?\](:ss(\.0*)?)?|\[ss?\](\.0*)?/i;

export function isDateFormat(fmt: string | undefined): boolean {
  if (fmt === undefined) return false;
  return DATE_CHAR_RE.test(fmt.split(';')[0].replace(STRIP_RE, ''));
}

export function isTimedeltaFormat(fmt: string | undefined): boolean {
  if (fmt === undefined) return false;
  return TIMEDELTA_RE.test(fmt.split(';')[0]);
}

/** Excel's built-in number formats that are not dates (ids 0–49), for display; dates are in BUILTIN_DATE_FORMATS. */
const BUILTIN_NUMBER_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  48: '##0.0E+0',
  49: '@',
};

/** The format code Excel shows a cell with (custom definitions win; unknown ids show as General). */
export function displayFormatFor(numFmtId: number, custom: Map<number, string>): string {
  return custom.get(numFmtId) ?? BUILTIN_DATE_FORMATS[numFmtId] ?? BUILTIN_NUMBER_FORMATS[numFmtId] ?? 'General';
}

/** The format code openpyxl sees for a cellXfs numFmtId: custom definitions win, else the builtin table. */
export function formatCodeFor(numFmtId: number, custom: Map<number, string>): string | undefined {
  return custom.get(numFmtId) ?? (isBuiltinDate(numFmtId) ? BUILTIN_DATE_FORMATS[numFmtId] : undefined);
}

function isBuiltinDate(id: number): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTIN_DATE_FORMATS, id);
}

export type DateEpoch = 'windows' | 'mac1904';
const EPOCH_DAYS: Record<DateEpoch, number> = {
  windows: daysFromCivil(1899, 12, 30),
  mac1904: daysFromCivil(1904, 1, 1),
};
const MS_PER_DAY = 86_400_000;
const MIN_DAYS = daysFromCivil(1, 1, 1);
const MAX_DAYS = daysFromCivil(9999, 12, 31);

/** Python `divmod(x, 1)` for floats (floor quotient, non-negative remainder, CPython's rounding fix-up). */
function pyDivmodOne(x: number): [number, number] {
  let mod = x % 1;
  let div = x - mod;
  if (mod !== 0) {
    if (mod < 0) {
      mod += 1;
      div -= 1;
    }
  } else mod = 0;
  let floorDiv = Math.floor(div);
  if (div - floorDiv > 0.5) floorDiv += 1;
  return [floorDiv, mod];
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 306;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: era * 400 + yoe + (month <= 2 ? 1 : 0), month, day };
}

function timedeltaFromDays(value: number): PyTimedelta {
  let totalUs = pyRound(value * MS_PER_DAY * 1000, 0);
  if (totalUs % 1_000_000 !== 0) {
    const seconds = Math.floor(totalUs / 1_000_000);
    totalUs = seconds * 1_000_000 + roundToThousands(totalUs - seconds * 1_000_000);
  }
  const days = Math.floor(totalUs / (MS_PER_DAY * 1000));
  const rest = totalUs - days * MS_PER_DAY * 1000;
  return { kind: 'timedelta', days, seconds: Math.floor(rest / 1_000_000), microseconds: rest % 1_000_000 };
}

/** Python round(n, -3) on an int: half-to-even at the thousands. */
function roundToThousands(n: number): number {
  const q = Math.floor(n / 1000);
  const r = n - q * 1000;
  if (r > 500 || (r === 500 && q % 2 !== 0)) return (q + 1) * 1000;
  return q * 1000;
}

/**
 * openpyxl from_excel; a serial outside datetime's range becomes the error string "#VALUE!" as openpyxl's reader does.
 */
export function fromExcel(value: number, epoch: DateEpoch, asTimedelta: boolean): CellValue {
  if (asTimedelta) return timedeltaFromDays(value);
  const [wholeDays, fraction] = pyDivmodOne(value);
  const diffMs = pyRound(fraction * 86400 * 1000, 0);
  if (value >= 0 && value < 1 && diffMs < MS_PER_DAY) {
    const s = Math.floor(diffMs / 1000);
    return {
      kind: 'time',
      hour: Math.floor(s / 3600),
      minute: Math.floor((s % 3600) / 60),
      second: s % 60,
      microsecond: (diffMs % 1000) * 1000,
    };
  }
  const dayShift = value > 0 && value < 60 && epoch === 'windows' ? 1 : 0;
  const totalMs = (EPOCH_DAYS[epoch] + wholeDays + dayShift) * MS_PER_DAY + diffMs;
  const days = Math.floor(totalMs / MS_PER_DAY);
  if (!Number.isFinite(totalMs) || days < MIN_DAYS || days > MAX_DAYS) return '#VALUE!';
  const msOfDay = totalMs - days * MS_PER_DAY;
  const s = Math.floor(msOfDay / 1000);
  const civil = civilFromDays(days);
  const dt: PyDateTime = {
    kind: 'datetime',
    ...civil,
    hour: Math.floor(s / 3600),
    minute: Math.floor((s % 3600) / 60),
    second: s % 60,
    microsecond: (msOfDay % 1000) * 1000,
  };
  return dt;
}
