import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  droppedReferences,
  formulaToExtendOf,
  keepsWhole,
  quotedFormulaOf,
  quotedFormulaProblems,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/quotedFormula';
import { DEV20 } from '../helpers/datasets';

function task(id: string): { instruction: string; input: { file: string; sheet: string | null } } {
  const records = JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as {
    id: string | number;
    instruction: string;
  }[];
  const record = records.find((r) => String(r.id) === id)!;
  return {
    instruction: record.instruction,
    input: { file: path.join(DEV20, 'spreadsheet', id, `1_${id}_input.xlsx`), sheet: null },
  };
}

describe("the user's formula an instruction asks to change (checked-vote-v13)", () => {
  it('is the one formula quoted with a request to change it, however the user spaced it', () => {
    expect(quotedFormulaOf(task('39604').instruction)).toBe('If ((B3*1000)<22000,B4-20,B4-30)');
    expect(quotedFormulaOf(task('57105').instruction)).toBe(
      'SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$A4,$K$7:$K$57,"<="&EOM($A4,0))',
    );
    // Prose in parentheses is no formula; nor is a call reading fewer than two cells.
    expect(quotedFormulaOf('Modify my formula so that C4 is zero (0) when B4 is small: IF(B4>1,B4,C4)')).toBe(
      'IF(B4>1,B4,C4)',
    );
    expect(quotedFormulaOf('Modify my formula =SUM(A1) please')).toBeUndefined();
    // No request to change the user's formula: a formula the user shows as an example is not theirs to keep.
    expect(quotedFormulaOf('Write a formula like IF(B4>1,B4,C4) for column D')).toBeUndefined();
    // Two formulas: which one is the user's is a guess, so none is taken.
    expect(quotedFormulaOf('My current formula is IF(A1>1,B1,C1); I also tried IF(A1>2,B1,C1)')).toBeUndefined();
  });

  it("fails 39604's candidate that dropped the user's B3 test, and passes the one that kept it whole", async () => {
    const { instruction, input } = task('39604');
    const [problem] = await quotedFormulaProblems(instruction, '=IF(B4<=20,0,B4-30)', input);
    expect(problem.kind).toBe('dropped_reference');
    expect(problem.detail).toContain('reads B3; this formula no longer reads it');
    expect(problem.detail).toContain("=IF(<new condition>, <its value>, <the user's formula>)");
    expect(await quotedFormulaProblems(instruction, '=IF(B4<=20,0,IF((B3*1000)<22000,B4-20,B4-30))', input)).toEqual(
      [],
    );
    // $ signs do not make another cell.
    expect(
      await quotedFormulaProblems(instruction, '=IF($B$4<=20,0,IF(($B$3*1000)<22000,B4-20,B4-30))', input),
    ).toEqual([]);
  });

  it("leaves a reference of the user's that reads only empty cells to be lost (57105's $A4)", async () => {
    const { instruction, input } = task('57105');
    const quoted = quotedFormulaOf(instruction)!;
    // The harness's mend of 57105 (solved in every sample) reads none of the user's cells: left to the other checks.
    const mended = '=SUMIFS($K$4:$K$57,$L$4:$L$57,">="&$B4,$L$4:$L$57,"<="&EOMONTH($B4,0))';
    expect(await droppedReferences(quoted, mended, input)).toEqual([]);
    // Swapping only the empty $A4 for $B4 keeps every cell of the user's that holds data.
    const swapped = '=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$B4,$K$7:$K$57,"<="&EOMONTH($B4,0))';
    expect(await droppedReferences(quoted, swapped, input)).toEqual([]);
    // Dropping one of its ranges that holds data while keeping the other is named.
    const halved = '=SUMIFS($L$7:$L$57,$J$7:$J$57,">="&$B4,$J$7:$J$57,"<="&EOMONTH($B4,0))';
    expect(await droppedReferences(quoted, halved, input)).toEqual(['K7:K57']);
  });

  it('is kept whole by a candidate only when it stands unchanged inside it (checked-vote-v15)', () => {
    const { instruction } = task('39604');
    const quoted = formulaToExtendOf(instruction)!;
    expect(quoted).toBe('If ((B3*1000)<22000,B4-20,B4-30)');
    // 57105 asks why the user's formula gives zeros, not to add a condition to it.
    expect(formulaToExtendOf(task('57105').instruction)).toBeUndefined();
    expect(keepsWhole(quoted, '=IF(B4<=20,0,IF((B3*1000)<22000,B4-20,B4-30))')).toBe(true);
    expect(keepsWhole(quoted, '=IF($B$4<=20, 0, IF(($B$3*1000)<22000, B4-20, B4-30))')).toBe(true);
    // The 1.5B's rewrites in v14's sample: they read B3 and B4 (no dropped_reference) but changed the user's formula.
    expect(keepsWhole(quoted, '=IF(B3<=20,0,B4-30)')).toBe(false);
    expect(keepsWhole(quoted, '=IF(((B3*1000)<22000),0,B4-30)')).toBe(false);
  });
});
