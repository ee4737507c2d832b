import { cellsOf, columnName, parseAnswerPosition } from '../../scoring/answerPosition';
import type { CellValue } from '../../../workbook/cellValue';
import { openWorkbookValues, type WorkbookValues } from '../../../workbook/ooxmlReader';

/** At most this many cells of a region are read (a whole-column target on a big sheet stays bounded). */
const MAX_REGION_CELLS = 20_000;

export interface RegionCell {
  address: string;
  value: CellValue;
  /** A formula without a cached value (not recalculated): written, but its value is unknown. */
  uncachedFormula: boolean;
}

export interface RegionRead {
  cells: RegionCell[];
  /** Sheets the answer region names that the workbook lacks. */
  missingSheets: string[];
}

/**
 * The answer region's cells of one workbook, as the scorer reads them (cached values only), with the strict reading
 * of answer_position (comma lists, half-quoted sheet names). An unqualified piece means the workbook's first sheet.
 */
export async function readRegion(file: string, answerPosition: string): Promise<RegionRead> {
  const wb = await openWorkbookValues(file);
  const cells: RegionCell[] = [];
  const missingSheets: string[] = [];
  for (const piece of parseAnswerPosition(answerPosition, 'strict').pieces) {
    if (piece.target.kind === 'error') continue;
    const name = piece.sheet ?? wb.sheetnames[0];
    if (!wb.sheetnames.includes(name)) {
      missingSheets.push(name);
      continue;
    }
    const sheet = await wb.sheet(name);
    const target =
      piece.target.kind === 'cells' ? piece.target : { ...piece.target, rowStart: 1, rowEnd: sheet.maxRow };
    for (const [row, col] of cellsOf(target)) {
      if (cells.length >= MAX_REGION_CELLS) break;
      cells.push({
        address: `${piece.sheet === null ? '' : `${name}!`}${columnName(col)}${row}`,
        value: sheet.get(row, col),
        uncachedFormula: sheet.isUncachedFormula(row, col),
      });
    }
  }
  return { cells, missingSheets };
}

export type { WorkbookValues };
