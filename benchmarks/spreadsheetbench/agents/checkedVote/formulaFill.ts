import type { FormulaReference } from './formulaReferences';

/**
 * A reference as it reads in the cell `rows` down and `columns` right of the formula's first cell, after the harness
 * fills the formula across the answer region: parts without `$` shift, anchored parts stay (Excel's fill handle).
 */
export function shifted(ref: FormulaReference, rows: number, columns: number): FormulaReference {
  const a = ref.anchored;
  const rowStart = ref.rowStart + (a.startRow ? 0 : rows);
  const rowEnd = ref.rowEnd + (a.endRow ? 0 : rows);
  const colStart = ref.colStart + (a.startColumn ? 0 : columns);
  const colEnd = ref.colEnd + (a.endColumn ? 0 : columns);
  return {
    ...ref,
    rowStart: Math.min(rowStart, rowEnd),
    rowEnd: Math.max(rowStart, rowEnd),
    colStart: Math.min(colStart, colEnd),
    colEnd: Math.max(colStart, colEnd),
  };
}

/**
 * Every cell a reference reads anywhere in a filled region of `rows` × `columns` cells: the union of its shifted
 * copies (contiguous, as each copy moves by one row or column from the last).
 */
export function filledSpan(ref: FormulaReference, rows: number, columns: number): FormulaReference {
  const last = shifted(ref, rows - 1, columns - 1);
  return {
    ...ref,
    rowStart: Math.min(ref.rowStart, last.rowStart),
    rowEnd: Math.max(ref.rowEnd, last.rowEnd),
    colStart: Math.min(ref.colStart, last.colStart),
    colEnd: Math.max(ref.colEnd, last.colEnd),
  };
}
