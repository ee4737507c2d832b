import { execFileSync } from 'node:child_process';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

/** Cells by sheet, then by address ("A1": value), in the order the sheets are made. */
export type SheetCells = Record<string, Record<string, string | number>>;

/** Writes a workbook with openpyxl (the sandbox's Python, as candidates write theirs): one sheet per key, in order. */
export function pythonWorkbook(file: string, cells: SheetCells): void {
  const code = [
    'import json, openpyxl',
    `cells = json.loads(${JSON.stringify(JSON.stringify(cells))})`,
    'wb = openpyxl.Workbook()',
    'wb.remove(wb.active)',
    'for name, values in cells.items():',
    '    ws = wb.create_sheet(name)',
    '    for address, value in values.items():',
    '        ws[address] = value',
    `wb.save(${JSON.stringify(file)})`,
  ].join('\n');
  execFileSync(sandboxPythonPath(), ['-c', code]);
}
