/** The cell reader's view of a workbook: sheet names and, per sheet, cached values by row and column. */
import type { CellValue } from './cellValue';

/** Rows × columns of one worksheet; a missing cell reads None. */
export interface SheetValues {
  kind: 'worksheet' | 'chartsheet';
  get(row: number, column: number): CellValue;
  /** Highest row / column holding a cell element (openpyxl max_row / max_column, min 1). */
  maxRow: number;
  maxColumn: number;
  /** True when the cell holds a formula without a cached value (openpyxl data_only reads it as None). */
  isUncachedFormula(row: number, column: number): boolean;
  /** The number format code the cell is shown with (`General` when it has none). */
  numberFormat(row: number, column: number): string;
}

export interface WorkbookValues {
  /** openpyxl `wb.sheetnames`: worksheets and chartsheets in workbook.xml order. */
  sheetnames: string[];
  /** The workbook's defined names (workbook.xml `<definedName name>`), hidden ones such as _xlnm.* included. */
  definedNames: string[];
  sheet(name: string): Promise<SheetValues>;
}
