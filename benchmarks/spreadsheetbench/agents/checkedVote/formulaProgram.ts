import type { FormulaRegion } from './formulaRegion';

/**
 * The `solve(wb)` a formula candidate becomes: the model's formula written into the region's first cell and, through
 * openpyxl's Translator (references shifted as Excel's fill does), into every other cell of the region; merged cells
 * other than a merge's top-left are skipped (they hold no value). So a formula candidate runs in the same frame, on
 * every test case, is recalculated, checked and voted on exactly like a Python candidate. Literals are passed as JSON.
 */
export function formulaSolveCode(formula: string, region: FormulaRegion): string {
  const literal = (v: unknown) => `_json.loads(${JSON.stringify(JSON.stringify(v))})`;
  return [
    'import json as _json',
    'from openpyxl.cell.cell import MergedCell',
    'from openpyxl.formula.translate import Translator',
    '',
    `FORMULA = ${literal(formula)}`,
    `SHEET = ${literal(region.sheet)}`,
    `FIRST = ${literal(region.first)}`,
    `REGION = ${literal(region.range)}`,
    '',
    '',
    'def solve(wb):',
    '    ws = wb[SHEET] if SHEET is not None else wb.worksheets[0]',
    '    fill = Translator(FORMULA, origin=FIRST)',
    '    rows = ws[REGION] if ":" in REGION else ((ws[REGION],),)',
    '    for row in rows:',
    '        for cell in row:',
    '            if isinstance(cell, MergedCell):',
    '                continue',
    '            cell.value = FORMULA if cell.coordinate == FIRST else fill.translate_formula(cell.coordinate)',
    '',
  ].join('\n');
}
