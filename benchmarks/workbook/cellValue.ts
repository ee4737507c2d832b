/**
 * Cell values as openpyxl (data_only=True) hands them to the official evaluator, and its transform/compare rules
 * (`transform_value`, `compare_cell_value` in evaluation/evaluation.py).
 */
import { pyFloat, pyRound } from './pyNumber';

export interface PyDateTime {
  kind: 'datetime';
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}
export interface PyTime {
  kind: 'time';
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}
export interface PyDate {
  kind: 'date';
  year: number;
  month: number;
  day: number;
}
/** Normalised like Python's timedelta: 0 ≤ seconds < 86400, 0 ≤ microseconds < 1e6. */
export interface PyTimedelta {
  kind: 'timedelta';
  days: number;
  seconds: number;
  microseconds: number;
}

/** null = Python None. Numbers cover Python int and float (both become float in the transform). */
export type CellValue = null | number | string | boolean | PyDateTime | PyTime | PyDate | PyTimedelta;

/** The value after `transform_value`: the Python type decides equality, so it is carried explicitly. */
export type Transformed =
  | { type: 'none' }
  | { type: 'float'; value: number }
  | { type: 'str'; value: string }
  | { type: 'date'; value: PyDate }
  | { type: 'timedelta'; value: PyTimedelta };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Days from 0001-01-01 (proleptic Gregorian ordinal − 1). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 306;
}

const EXCEL_EPOCH_DAYS = daysFromCivil(1899, 12, 30);

/** `datetime_to_float`: delta.days + delta.seconds / 86400.0 (microseconds ignored, as in the official script). */
export function datetimeToSerial(dt: PyDateTime): number {
  const days = daysFromCivil(dt.year, dt.month, dt.day) - EXCEL_EPOCH_DAYS;
  const seconds = dt.hour * 3600 + dt.minute * 60 + dt.second;
  return days + seconds / 86400.0;
}

/** Python `str(date)`: the day as YYYY-MM-DD (of a date or a datetime). */
export function dayToString(d: { year: number; month: number; day: number }): string {
  return `${d.year}-${pad(d.month)}-${pad(d.day)}`;
}

/**
 * A cell value as plain text, as a user reads it in a cell: '' when empty, a datetime at midnight as its day (for
 * matching a value against the texts of other cells).
 */
export function cellText(v: CellValue): string {
  if (v === null) return '';
  if (typeof v !== 'object') return String(v);
  switch (v.kind) {
    case 'date':
      return dayToString(v);
    case 'datetime':
      return v.hour || v.minute || v.second
        ? `${dayToString(v)} ${timeToString({ ...v, kind: 'time' })}`
        : dayToString(v);
    case 'time':
      return timeToString(v);
    case 'timedelta':
      return `${v.days}d ${v.seconds}s ${v.microseconds}µs`;
  }
}

/** Python `str(time)`. */
export function timeToString(t: PyTime): string {
  const base = `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
  return t.microsecond ? `${base}.${pad(t.microsecond, 6)}` : base;
}

export function transformValue(v: CellValue): Transformed {
  if (v === null) return { type: 'none' };
  if (typeof v === 'boolean') return { type: 'float', value: v ? 1 : 0 };
  if (typeof v === 'number') return { type: 'float', value: pyRound(v, 2) };
  if (typeof v === 'string') {
    const parsed = pyFloat(v);
    return parsed === undefined ? { type: 'str', value: v } : { type: 'float', value: pyRound(parsed, 2) };
  }
  switch (v.kind) {
    case 'time':
      return { type: 'str', value: timeToString(v).slice(0, -3) };
    case 'datetime':
      return { type: 'float', value: pyRound(datetimeToSerial(v), 0) };
    case 'date':
      return { type: 'date', value: v };
    case 'timedelta':
      return { type: 'timedelta', value: v };
  }
}

const isBlank = (t: Transformed) => t.type === 'none' || (t.type === 'str' && t.value === '');

/** `compare_cell_value(gt, out)`: None ≡ "", then the Python types must match, then Python `==`. */
export function compareCellValue(gt: CellValue, out: CellValue): boolean {
  const a = transformValue(gt);
  const b = transformValue(out);
  if (isBlank(a) && isBlank(b)) return true;
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'none':
      return true;
    case 'float':
    case 'str':
      return a.value === (b as typeof a).value;
    case 'date': {
      const o = (b as typeof a).value;
      return a.value.year === o.year && a.value.month === o.month && a.value.day === o.day;
    }
    case 'timedelta': {
      const o = (b as typeof a).value;
      return a.value.days === o.days && a.value.seconds === o.seconds && a.value.microseconds === o.microseconds;
    }
  }
}

/** Python-like repr of a cell value for verdict reasons. */
export function describeValue(v: CellValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}` : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  switch (v.kind) {
    case 'datetime':
      return `datetime(${dayToString(v)} ${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)})`;
    case 'time':
      return `time(${timeToString(v)})`;
    case 'date':
      return `date(${dayToString(v)})`;
    case 'timedelta':
      return `timedelta(days=${v.days}, seconds=${v.seconds}, microseconds=${v.microseconds})`;
  }
}
