import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appliesOperatorToRange,
  formulaSolveCode,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaProgram';
import { formulaRegionOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaRegion';
import { framedProgram } from '../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import { readRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/regionCells';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

describe('which formulas are filled as array formulas', () => {
  it('an operator applied to a whole range means element-wise evaluation', () => {
    expect(appliesOperatorToRange('=INDEX(G$2:G$191,MATCH(1,(A$2:A$191=B2)*(C$2:C$191=C2),0))')).toBe(true);
    expect(appliesOperatorToRange('=SUM(IF(A2:A9>0,1,0))')).toBe(true);
    expect(appliesOperatorToRange("=SUMPRODUCT(('Sea Freight'!A2:A9=B2)*1)")).toBe(true);
    expect(appliesOperatorToRange('=MATCH(1,INDEX((x=Data!$A$2:$A$9),0),0)')).toBe(true);
  });

  it('ranges passed whole to functions, cell arithmetic and text in quotes do not', () => {
    expect(appliesOperatorToRange('=SUMIFS($B$2:$B$4,$A$2:$A$4,">="&D2,$A$2:$A$4,"<="&EOMONTH(D2,0))')).toBe(false);
    expect(appliesOperatorToRange('=INDEX($A$2:$A$4,MATCH(LARGE($B$2:$B$4,ROWS($D$2:D2)),$B$2:$B$4,0))')).toBe(false);
    expect(appliesOperatorToRange('=IFERROR(INDEX(Prices!$C$2:$C$3,MATCH(B2,Prices!$A$2:$A$3,0)),"")')).toBe(false);
    expect(appliesOperatorToRange('=IF(B4>=$E$1,"High","A2:A9=")')).toBe(false);
    expect(appliesOperatorToRange('=A2*B2')).toBe(false);
    expect(appliesOperatorToRange('=VLOOKUP(A2,$D:$F,2,0)')).toBe(false);
    expect(appliesOperatorToRange('=SUM(A:A)-B2')).toBe(false);
  });
});

describe('the fill program with array evaluation, recalculated by LibreOffice', () => {
  let recalc: LibreOfficeRecalculator;
  beforeAll(() => {
    recalc = LibreOfficeRecalculator.create({ instances: 1 });
  });
  afterAll(async () => {
    await recalc?.close();
  });

  async function filledAndCalculated(formula: string, answerPosition: string): Promise<unknown[]> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-array-'));
    const input = path.join(dir, 'in.xlsx');
    const output = path.join(dir, 'out.xlsx');
    const rows = [
      ['City', 'Size', 'Rate', 'Find city', 'Find size', 'Rate found'],
      ['Oslo', 20, 5, 'Rome', 40],
      ['Rome', 20, 7, 'Oslo', 20],
      ['Rome', 40, 9, 'Rome', 20],
    ];
    execFileSync(sandboxPythonPath(), [
      '-c',
      `import openpyxl, json\nwb=openpyxl.Workbook()\nws=wb.active\nws.title='Data'\nfor r in json.loads(${JSON.stringify(JSON.stringify(rows))}): ws.append(r)\nwb.save(${JSON.stringify(input)})`,
    ]);
    writeFileSync(
      path.join(dir, 'p.py'),
      framedProgram(formulaSolveCode(formula, formulaRegionOf(answerPosition)!), { input, output }),
    );
    execFileSync(sandboxPythonPath(), [path.join(dir, 'p.py')]);
    const calculated = path.join(dir, 'calc.xlsx');
    await recalc.recalc(output, calculated);
    return (await readRegion(calculated, answerPosition)).cells.map((c) => c.value);
  }

  it('a two-criteria lookup written without Ctrl+Shift+Enter gives each row its own match', async () => {
    const values = await filledAndCalculated('=INDEX($C$2:$C$4,MATCH(1,($A$2:$A$4=D2)*($B$2:$B$4=E2),0))', 'F2:F4');
    expect(values).toEqual([9, 5, 7]);
  }, 120_000);

  it('a conditional sum through IF over a range adds every matching row, not only its own', async () => {
    expect(await filledAndCalculated('=SUM(IF($A$2:$A$4=D2,$C$2:$C$4,0))', 'F2:F4')).toEqual([16, 5, 16]);
  }, 120_000);

  it('a plain formula is still filled as a plain formula', async () => {
    expect(await filledAndCalculated('=C2*2', 'F2:F4')).toEqual([10, 14, 18]);
  }, 120_000);
});
