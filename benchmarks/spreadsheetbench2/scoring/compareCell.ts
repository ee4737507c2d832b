/**
 * evaluation.py's cell rules for SpreadsheetBench 2: `compare_cell_value` (array-formula text, "not meaningful"
 * equivalents, raw numbers within 1%, then the first edition's transform with None ≡ "" ≡ 0, formulas without `$`,
 * rounded numbers within 1%), `compare_cell_formula` (`=+` as `=`) and `_has_excel_error`.
 */
import { transformValue, type CellValue, type Transformed } from '../../workbook/cellValue';
import type { FormulaObject, FormulaValue } from './workbookDetails';

/** A cell's value in either load mode: cached values, or formulas where the cell has one. */
export type ScoredValue = CellValue | FormulaObject;

const DISPLAY_EQUIVALENT_ERRORS = new Set(['#DIV/0!', '#N/A']);
const NOT_MEANINGFUL = new Set([
  ...DISPLAY_EQUIVALENT_ERRORS,
  'N/A',
  'NA',
  'N.A.',
  'N/M',
  'NM',
  'N.M.',
  'NOT MEANINGFUL',
  'NOT APPLICABLE',
  'NOT AVAILABLE',
  '\u2014',
  '\u2013',
  '-',
  '--',
  '---',
]);

const EXCEL_ERRORS = new Set(['#REF!', '#VALUE!', '#DIV/0!', '#NAME?', '#NULL!', '#N/A', '#NUM!']);

const isFormulaObject = (v: ScoredValue): v is FormulaObject =>
  typeof v === 'object' && v !== null && (v.kind === 'arrayFormula' || v.kind === 'dataTableFormula');

const hasText = (v: ScoredValue): v is { kind: 'arrayFormula'; text: string } =>
  isFormulaObject(v) && v.kind === 'arrayFormula';

const isNotMeaningful = (v: ScoredValue) => typeof v === 'string' && NOT_MEANINGFUL.has(v.trim().toUpperCase());

/** Python isinstance(v, (int, float)): booleans count. */
const asNumber = (v: ScoredValue): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : undefined;

function withinTolerance(a: number, b: number, tolerance: number): boolean {
  if (a === b) return true;
  if (a === 0 || b === 0) return Math.abs(a - b) <= tolerance;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)) <= tolerance;
}

type Normalised = Transformed | { type: 'object' };

const transform = (v: ScoredValue): Normalised => (isFormulaObject(v) ? { type: 'object' } : transformValue(v));

const isEmptyString = (t: Normalised) => t.type === 'str' && t.value === '';

function sameTransformed(a: Normalised, b: Normalised, tolerance: number): boolean {
  if ((isEmptyString(a) || a.type === 'none') && (isEmptyString(b) || b.type === 'none')) return true;
  if (a.type === 'none' && b.type === 'float' && b.value === 0) return true;
  if (b.type === 'none' && a.type === 'float' && a.value === 0) return true;
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'none':
      return true;
    case 'object':
      return false;
    case 'str': {
      const o = (b as typeof a).value;
      if (a.value === o) return true;
      if (a.value.startsWith('=') && o.startsWith('='))
        return a.value.replaceAll('$', '').toUpperCase() === o.replaceAll('$', '').toUpperCase();
      return false;
    }
    case 'float':
      return withinTolerance(a.value, (b as typeof a).value, tolerance);
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

/** `compare_cell_value(v1, v2, tolerance=0.01)`. */
export function compareCellValueV2(v1: ScoredValue, v2: ScoredValue, tolerance = 0.01): boolean {
  if (hasText(v1) && hasText(v2)) return v1.text === v2.text;
  if (isNotMeaningful(v1) && isNotMeaningful(v2)) return true;
  const n1 = asNumber(v1);
  const n2 = asNumber(v2);
  if (n1 !== undefined && n2 !== undefined) return withinTolerance(n1, n2, tolerance);
  return sameTransformed(transform(v1), transform(v2), tolerance);
}

const normaliseFormula = (f: string) => {
  const up = f.replaceAll('$', '').toUpperCase();
  return up.startsWith('=+') ? '=' + up.slice(2) : up;
};

/** `compare_cell_formula`: values as loaded with formulas (`data_only=False`). */
export function compareCellFormula(f1: ScoredValue, f2: ScoredValue): boolean {
  if (hasText(f1) && hasText(f2)) return f1.text === f2.text;
  if (typeof f1 === 'string' && typeof f2 === 'string' && f1.startsWith('=') && f2.startsWith('='))
    return normaliseFormula(f1) === normaliseFormula(f2);
  if ((f1 === null || f1 === '') && (f2 === null || f2 === '')) return true;
  return compareCellValueV2(f1, f2);
}

/** `_has_excel_error`: the cached value is one of Excel's seven classic error texts. */
export const hasExcelError = (v: ScoredValue) => typeof v === 'string' && EXCEL_ERRORS.has(v);

/** A formula-mode value: the formula where the cell has one, else its cached value. */
export const formulaModeValue = (formula: FormulaValue | undefined, cached: CellValue): ScoredValue =>
  formula ?? cached;
