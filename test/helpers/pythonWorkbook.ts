import { execFileSync } from 'node:child_process';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

/** A cell value: text, a number, or a date-time (`{ date: '2020-07-12' }`, ISO, written as a Python datetime). */
export type CellInput = string | number | { date: string };
/** Cells by sheet, then by address ("A1": value), in the order the sheets are made. */
export type SheetCells = Record<string, Record<string, CellInput>>;

/**
 * Writes a workbook with openpyxl (the sandbox's Python, as candidates write theirs): one sheet per key, in order;
 * `definedNames` maps a workbook-scoped name to what it refers to (`Sheet1!$A$2:$A$9`).
 */
export function pythonWorkbook(file: string, cells: SheetCells, definedNames: Record<string, string> = {}): void {
  const code = [
    'import datetime, json, openpyxl',
    'from openpyxl.workbook.defined_name import DefinedName',
    `cells = json.loads(${JSON.stringify(JSON.stringify(cells))})`,
    `names = json.loads(${JSON.stringify(JSON.stringify(definedNames))})`,
    'wb = openpyxl.Workbook()',
    'wb.remove(wb.active)',
    'for name, values in cells.items():',
    '    ws = wb.create_sheet(name)',
    '    for address, value in values.items():',
    "        ws[address] = datetime.datetime.fromisoformat(value['date']) if isinstance(value, dict) else value",
    'for name, ref in names.items():',
    '    wb.defined_names[name] = DefinedName(name, attr_text=ref)',
    `wb.save(${JSON.stringify(file)})`,
  ].join('\n');
  execFileSync(sandboxPythonPath(), ['-c', code]);
}
