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
    'from openpyxl.worksheet.formula import ArrayFormula',
    '',
    `FORMULA = ${literal(formula)}`,
    `AS_ARRAY = ${appliesOperatorToRange(formula) ? 'True' : 'False'}`,
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
    '            text = FORMULA if cell.coordinate == FIRST else fill.translate_formula(cell.coordinate)',
    '            cell.value = ArrayFormula(cell.coordinate, text) if AS_ARRAY else text',
    '',
  ].join('\n');
}

/** A range (A2:A9, $A:$A, 'Sheet'!B2:B9's range part) written next to an operator: `A2:A9=x`, `(B2:B9)*…`, `x>=C2:C9`. */
const RANGE_BESIDE_OPERATOR =
  /(?:\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+|\$?[A-Z]{1,3}:\$?[A-Z]{1,3})\s*(?:[=<>*/+\-^&])|(?:[=<>*/+\-^&])\s*(?:'[^']*'!|[A-Za-z_][\w.]*!)?(?:\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+|\$?[A-Z]{1,3}:\$?[A-Z]{1,3})(?![\w(])/;

/**
 * Whether a formula applies an operator to a whole range (`(A2:A9=B2)*(C2:C9=C2)` inside MATCH, `SUM(IF(A2:A9>0,…))`):
 * such a formula means element-wise array evaluation, which Excel 365 does for every formula but older Excel and
 * LibreOffice only for an array formula (Ctrl+Shift+Enter); entered as a plain formula it gives #VALUE! or the value
 * of one row. The fill then writes each cell as a one-cell array formula. Text in double quotes is ignored.
 */
export function appliesOperatorToRange(formula: string): boolean {
  const code = formula.slice(1).replace(/"[^"]*"/g, '""');
  return RANGE_BESIDE_OPERATOR.test(code);
}
