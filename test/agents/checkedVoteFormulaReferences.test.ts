import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceNotes, referencesOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaReferences';
import { formulaRepairMessage } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaPrompt';
import { checkCandidate } from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { pythonWorkbook } from '../helpers/pythonWorkbook';

describe("a formula's references", () => {
  it('finds cells and ranges, qualified or not, and skips text, functions and names', () => {
    const refs = referencesOf(
      `=SUMIFS($L$7:$L$57,'Sea Freight'!K7:K57,">="&$A4,Data!$G$2,"<="&EOMONTH(A4,0))+LOG10(B2)+COUNTIF(A:A,"B9")`,
    );
    expect(refs.map((r) => [r.text, r.sheet])).toEqual([
      ['$L$7:$L$57', undefined],
      ["'Sea Freight'!K7:K57", 'Sea Freight'],
      ['$A4', undefined],
      ['Data!$G$2', 'Data'],
      ['A4', undefined],
      ['B2', undefined],
    ]);
    expect(refs[0]).toMatchObject({ rowStart: 7, rowEnd: 57, colStart: 12, colEnd: 12 });
    expect(referencesOf('=MyRange1+SUM(x)')).toEqual([]);
  });

  it("names a range that stops short of its column's data (copied from an example's two rows), not one that ends with it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-refs-'));
    const file = path.join(dir, 'table.xlsx');
    const data: Record<string, string | number> = { A1: 'Code', B1: 'Rate', A12: 'note' };
    for (let r = 2; r < 10; r++) Object.assign(data, { [`A${r}`]: r, [`B${r}`]: r / 10 });
    pythonWorkbook(file, { Data: data });
    const notes = await referenceNotes(file, '=INDEX(Data!$B$2:$B$3,MATCH(A2,$A$2:$A$9,0))+SUM(A2:B4)', 'Data');
    expect(notes.cutShort).toEqual([
      'Data!$B$2:$B$3 stops at row 3, but its column has data down to row 9',
      'A2:B4 stops at row 4, but its column has data down to row 9',
    ]);
    // One row more is not "short" (a total row under a table is common).
    expect((await referenceNotes(file, '=SUM(B2:B8)', 'Data')).cutShort).toEqual([]);
  });

  it('names the references whose cells are all empty in the input, and says so in the repair request', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-refs-'));
    const file = path.join(dir, 'in.xlsx');
    pythonWorkbook(file, { Sheet1: { B4: 1, K7: 100, L7: 5 }, Data: { A1: 'x' } });
    const formula = '=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$A4,Data!$G$2:$G$9,B4)+Data!A1+Missing!A1';
    expect(await referenceNotes(file, formula, 'Sheet1')).toEqual({ empty: ['$A4', 'Data!$G$2:$G$9'], cutShort: [] });
    expect(await referenceNotes(file, '=B4*2', null)).toEqual({ empty: [], cutShort: [] });
    const check = checkCandidate([
      {
        testCase: 1,
        error: '',
        timedOut: false,
        outputProduced: true,
        output: { cells: [{ address: 'C4', value: 0, uncachedFormula: false }], missingSheets: [] },
        input: { cells: [{ address: 'C4', value: 0, uncachedFormula: false }], missingSheets: [] },
      },
    ]);
    const region = { sheet: null, first: 'C4', range: 'C4', rows: 1, columns: 1 };
    const text = formulaRepairMessage(formula, region, check, undefined, {
      testCase: 1,
      empty: ['$A4'],
      cutShort: ['$A$2:$A$3 stops at row 3, but its column has data down to row 9'],
    });
    expect(text).toContain('- input 1: the formula reads cells that are empty there ($A4)');
    expect(text).toContain('- input 1: $A$2:$A$3 stops at row 3, but its column has data down to row 9: a range');
    expect(formulaRepairMessage(formula, region, check)).not.toContain('empty there');
  });
});
