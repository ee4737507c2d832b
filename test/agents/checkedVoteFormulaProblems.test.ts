import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callsOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaCalls';
import { filledSpan, shifted } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaFill';
import { formulaProblems } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaProblems';
import { referencesOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaReferences';
import { formulaRepairMessage } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaPrompt';
import { formulaRegionOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaRegion';
import { checkCandidate } from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { pythonWorkbook, type CellInput, type SheetCells } from '../helpers/pythonWorkbook';

/** 18645's shape: stages without a header row on Data (A1 is the first stage), looked up from Opportunities!D. */
function pipeline(stages: [string, number][], picked: string[]): SheetCells {
  const data: Record<string, string | number> = {};
  stages.forEach(([name, share], i) => Object.assign(data, { [`A${i + 1}`]: name, [`B${i + 1}`]: share }));
  const opportunities: Record<string, string | number> = { D1: 'Pipeline Stage', E1: 'Revenue', G1: 'Weighted' };
  picked.forEach((stage, i) => Object.assign(opportunities, { [`D${i + 2}`]: stage, [`E${i + 2}`]: 1000 * (i + 1) }));
  return { Opportunities: opportunities, Data: data };
}

function inputs(...books: SheetCells[]): { testCase: number; file: string }[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-problems-'));
  return books.map((cells, i) => {
    const file = path.join(dir, `${i + 1}_input.xlsx`);
    pythonWorkbook(file, cells);
    return { testCase: i + 1, file };
  });
}

const REGION = formulaRegionOf("'Opportunities'!G2:G3")!;
const STAGES: [string, number][] = [
  ['00 Targeting', 0],
  ['01 Talks', 0.1],
  ['02 Offer', 0.5],
];

describe('the calls of a formula', () => {
  it('splits top-level arguments only, keeps text and quoted sheet names whole, and drops Excel prefixes', () => {
    const calls = callsOf(`=IFERROR(INDEX('A, b'!$B$1:$B$6,MATCH(D2&",",_xlfn.XLOOKUP(1,A:A,B:B),0)),"x(,")`);
    expect(calls.map((c) => [c.name, c.args])).toEqual([
      ['IFERROR', [`INDEX('A, b'!$B$1:$B$6,MATCH(D2&",",_xlfn.XLOOKUP(1,A:A,B:B),0))`, '"x(,"']],
      ['INDEX', [`'A, b'!$B$1:$B$6`, 'MATCH(D2&",",_xlfn.XLOOKUP(1,A:A,B:B),0)']],
      ['MATCH', ['D2&","', '_xlfn.XLOOKUP(1,A:A,B:B)', '0']],
      ['XLOOKUP', ['1', 'A:A', 'B:B']],
    ]);
    expect(callsOf('=TODAY()')).toEqual([{ name: 'TODAY', text: 'TODAY()', args: [] }]);
    expect(callsOf('=SUM(A1:A3')).toEqual([]); // unclosed: left out, not guessed
  });
});

describe('a reference filled across the answer region', () => {
  it('moves its unanchored parts only, and spans every cell it reads', () => {
    const [mixed] = referencesOf('=SUM($A2:B$3)');
    expect(shifted(mixed, 4, 2)).toMatchObject({ rowStart: 3, rowEnd: 6, colStart: 1, colEnd: 4 });
    const [relative] = referencesOf('=$A4');
    expect(filledSpan(relative, 12, 1)).toMatchObject({ rowStart: 4, rowEnd: 15, colStart: 1, colEnd: 1 });
    const [fixed] = referencesOf('=Data!$G$2');
    expect(filledSpan(fixed, 12, 3)).toMatchObject({ rowStart: 2, rowEnd: 2, colStart: 7, colEnd: 7 });
  });
});

describe("what a formula's references get wrong on the inputs", () => {
  const books = inputs(pipeline(STAGES, ['00 Targeting', '02 Offer']), pipeline(STAGES, ['01 Talks', '00 Targeting']));

  it('fails a lookup whose value its own column holds just outside the searched range, and says where', async () => {
    const problems = await formulaProblems(books, '=IFERROR(E2*VLOOKUP(D2,Data!$A$2:$B$3,2,FALSE),"")', REGION);
    expect(problems).toEqual([
      {
        kind: 'lookup_miss',
        testCase: 1,
        detail:
          'in G2, VLOOKUP(D2,Data!$A$2:$B$3,2,FALSE) looks for "00 Targeting" (from D2) in Data!A2:A3, which does not hold it, but Data!A1 does: widen the range to take in all of the data it searches',
      },
    ]);
    const match = await formulaProblems(books, '=E2*INDEX(Data!$B$2:$B$3,MATCH(D2,Data!$A$2:$A$3,0))', REGION);
    expect(match.map((p) => p.detail)).toEqual([expect.stringContaining('in G2, MATCH(D2,Data!$A$2:$A$3,0)')]);
  });

  it('passes the right lookup, an approximate one, and a miss of a value the column does not hold at all', async () => {
    expect(await formulaProblems(books, '=E2*VLOOKUP(D2,Data!$A$1:$B$3,2,FALSE)', REGION)).toEqual([]);
    expect(await formulaProblems(books, '=E2*VLOOKUP(D2,Data!$A$2:$B$3,2,TRUE)', REGION)).toEqual([]);
    const unknown = inputs(pipeline(STAGES, ['09 Lost', '01 Talks']));
    expect(await formulaProblems(unknown, '=E2*VLOOKUP(D2,Data!$A$1:$B$3,2,FALSE)', REGION)).toEqual([]);
  });

  it('fails a reference that reads only empty cells wherever the formula is filled, on every input', async () => {
    const problems = await formulaProblems(books, '=E2*VLOOKUP(D2,Data!$A$1:$B$3,2,FALSE)*Data!$G$2+$K2', REGION);
    expect(problems).toEqual([
      {
        kind: 'empty_reference',
        detail:
          'the formula reads only empty cells through Data!$G$2, $K2, in every cell of G2:G3 and on every input: find in the workbook view the cells that hold the data it needs',
      },
    ]);
    // E3 holds a revenue on every input: E2 filled down reads E2:E3, not only empty cells.
    expect(await formulaProblems(books, '=E2+Data!B1', REGION)).toEqual([]);
  });

  it('keeps a reference that is empty on one input but not on another (the data differ, the formula may be right)', async () => {
    const mixed = inputs(pipeline(STAGES, ['00 Targeting']), {
      ...pipeline(STAGES, ['00 Targeting']),
      Data: { G2: 2 },
    });
    expect(await formulaProblems(mixed, '=E2*Data!$G$2', REGION)).toEqual([]);
  });

  it('fails the candidate and names the problem once in the repair request', async () => {
    const found = await formulaProblems(books, '=IFERROR(E2*VLOOKUP(D2,Data!$A$2:$B$3,2,FALSE)*$K$9,"")', REGION);
    const cells = [{ address: 'G2', value: '', uncachedFormula: false }];
    const check = checkCandidate(
      [
        {
          testCase: 1,
          error: '',
          timedOut: false,
          outputProduced: true,
          output: { cells: [...cells, { address: 'G3', value: 0, uncachedFormula: false }], missingSheets: [] },
          input: { cells: [...cells, { address: 'G3', value: '', uncachedFormula: false }], missingSheets: [] },
        },
      ],
      found,
    );
    expect(check.passed).toBe(false);
    expect(check.problems.map((p) => p.kind)).toEqual(['empty_reference', 'lookup_miss']);
    const text = formulaRepairMessage('=IFERROR(…)', REGION, check, undefined, {
      testCase: 1,
      empty: ['$K$9'],
      cutShort: [],
    });
    expect(text).toContain('- all inputs: the formula reads only empty cells through $K$9');
    expect(text).toContain('- input 1: in G2, VLOOKUP(D2,Data!$A$2:$B$3,2,FALSE) looks for "00 Targeting"');
    expect(text).not.toContain('empty there');
    // Causes come first and the symptoms they explain are left out: the generic advice for a constant or unchanged
    // answer ("relative references") turned the 1.5B's empty $A4 into the still empty A4 (v8.2, 57105).
    const withSymptoms = {
      ...check,
      problems: [{ kind: 'constant' as const, detail: 'every answer cell holds 0' }, ...check.problems],
    };
    const shown = formulaRepairMessage('=IFERROR(…)', REGION, withSymptoms);
    expect(shown.indexOf('reads only empty cells')).toBeLessThan(shown.indexOf('VLOOKUP(D2'));
    expect(shown).not.toContain('every answer cell holds 0');
    const symptomOnly = { ...check, problems: [{ kind: 'constant' as const, detail: 'every answer cell holds 0' }] };
    expect(formulaRepairMessage('=E2', REGION, symptomOnly)).toContain('every answer cell holds 0. Refer to');
  });

  it('names the data beside an empty reference, outside the answer columns, nearest first', async () => {
    // 57105's shape: months in B, the answer in C, a forum formula reading the empty column A.
    const months = inputs({ Sheet1: { B3: 'MONTH', C3: 'INCOME', B4: 'Jul', B5: 'Aug', C4: 0, D4: 'x' } });
    const region = formulaRegionOf('C4:C5')!;
    const [problem] = await formulaProblems(months, '=SUMIFS($D$9:$D$20,$E$9:$E$20,$A4)', region);
    expect(problem.detail).toContain('through $D$9:$D$20, $E$9:$E$20, $A4,');
    expect(problem.detail).toContain('; replace $A4 with $B4 ("Jul", under "MONTH"), where the data is');
    expect(problem.detail).not.toMatch(/\$C4|\$D4/); // C is the answer column; D is three columns off
  });
});

describe('a conditional sum whose date criterion meets a range without dates', () => {
  // 57105's shape: months in B, amounts in K, payment dates in L; the forum formula swaps K and L.
  const cells: Record<string, CellInput> = { B3: 'Month', B4: { date: '2020-07-01' }, K3: 'Amount', L3: 'Paid on' };
  for (let r = 7; r <= 10; r++) Object.assign(cells, { [`K${r}`]: 100, [`L${r}`]: { date: `2020-07-1${r - 7}` } });
  const books = inputs({ Sheet1: cells }, { Sheet1: cells });
  const region = formulaRegionOf('C4:C5')!;

  it('fails it and says which range of the same call holds the dates', async () => {
    const swapped = '=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$B4,$K$7:$K$57,"<="&EOMONTH($B4,0))';
    expect(await formulaProblems(books, swapped, region)).toEqual([
      {
        kind: 'criteria_mismatch',
        testCase: 1,
        detail:
          'in SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$B4,$K$7:$K$57,"<="&EOMONTH($B4,0)), the criteria range $K$7:$K$57 holds no dates (e.g. 100), but its criterion ">="&$B4 is a date, so it never matches as meant: compare the dates of $L$7:$L$57 instead (in SUMIFS the first range is the one summed)',
      },
    ]);
  });

  it('passes the right SUMIFS, and a criterion that is not a date', async () => {
    const right = '=SUMIFS($K$7:$K$57,$L$7:$L$57,">="&$B4,$L$7:$L$57,"<="&EOMONTH($B4,0))';
    expect(await formulaProblems(books, right, region)).toEqual([]);
    expect(await formulaProblems(books, '=COUNTIF($K$7:$K$57,">="&$K$7)', region)).toEqual([]);
  });
});
