/** A cell value as the scorer read it, in the JSON form `show`, the task page and the cell diffs present (`DiffValue`). */
import { dayToString, timeToString, type CellValue } from './cellValue';
import type { DiffValue } from '../report/taskView';

export function diffValue(v: CellValue, uncachedFormula = false): DiffValue {
  const out = plainValue(v);
  return uncachedFormula ? { ...out, uncachedFormula: true } : out;
}

function plainValue(v: CellValue): DiffValue {
  if (v === null) return { value: null, type: 'empty' };
  if (typeof v === 'boolean') return { value: v, type: 'bool' };
  if (typeof v === 'number') return { value: v, type: 'number' };
  if (typeof v === 'string') return { value: v, type: 'text' };
  switch (v.kind) {
    case 'datetime':
      return {
        value: `${dayToString(v)}T${timeToString({ ...v, kind: 'time' })}`,
        type: 'datetime',
      };
    case 'date':
      return { value: dayToString(v), type: 'date' };
    case 'time':
      return { value: timeToString(v), type: 'time' };
    case 'timedelta':
      return { value: `${v.days}d ${v.seconds}s ${v.microseconds}µs`, type: 'duration' };
  }
}
