import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mendedFormulaOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaMend';
import { readsNoCell, unknownNames } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaNames';
import { withSwaps } from '../../benchmarks/spreadsheetbench/agents/checkedVote/causeMends';
import { formulaFindings, formulaProblems } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaProblems';
import { formulaRegionOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaRegion';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import { pythonWorkbook, type SheetCells } from '../helpers/pythonWorkbook';
import { DEV20 } from '../helpers/datasets';

function inputs(...books: SheetCells[]): { testCase: number; file: string }[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-names-'));
  return books.map((cells, i) => {
    const file = path.join(dir, `${i + 1}_input.xlsx`);
    pythonWorkbook(file, cells);
    return { testCase: i + 1, file };
  });
}

describe('names a formula uses that nothing defines (checked-vote-v9)', () => {
  it("finds 50811's invented names and nothing else", () => {
    const formula = '=INDEX(Sheet1!$D$2:$D$3,MATCH(Rep_Name&Client_Name,Sheet1!$A$2:$A$3&Sheet1!$B$2:$B$3,0))';
    expect(unknownNames(formula, [])).toEqual(['Rep_Name', 'Client_Name']);
    // A defined name (any case) is a name; so are functions, sheets, tables, cells, column and row ranges, literals.
    expect(unknownNames(formula, ['rep_name', 'CLIENT_NAME'])).toEqual([]);
    const valid = `=IF(ISNA(MATCH($B2,'My Sheet'!A:A,0)),#N/A,SUM(Sales[Amount],Sales[[#This Row],[Net]],Data!$C$1:$XFD$2,2:3,TRUE,1E+5,"Rep_Name"))`;
    expect(unknownNames(valid, [])).toEqual([]);
    expect(unknownNames('=IFERROR(A1/B1,#DIV/0!)&#VALUE!', [])).toEqual([]);
    // Beyond Excel's last column (XFD) or row, a cell-like token is a name.
    expect(unknownNames('=XFE1+A1048577+AB12', [])).toEqual(['XFE1', 'A1048577']);
    // LET and LAMBDA declare names of their own: not judged.
    expect(unknownNames('=LET(total,SUM(A1:A9),total*2)', [])).toEqual([]);
  });

  it('refuses such a formula before it runs, naming each name and the workbook names there are', () => {
    const reply = '```excel\n=INDEX(Rep_Percentages,MATCH(Rep_Name,Reps,0))\n```';
    const refused = mendedFormulaOf(reply, 'stop', { sheetnames: ['Sheet1'], definedNames: ['Reps'] });
    expect(refused).toEqual({
      problem: expect.stringMatching(
        /^the formula uses "Rep_Percentages", "Rep_Name", which are not a cell, a range, a function or a name this workbook defines \(its names are "Reps"\): write the address of the cells that hold them instead/,
      ),
    });
    const none = mendedFormulaOf('```excel\n=Rate*2\n```', 'stop', { sheetnames: ['Sheet1'], definedNames: [] });
    expect(none).toEqual({ problem: expect.stringContaining('"Rate", which is not a cell') });
    expect(none).toEqual({ problem: expect.stringContaining('(it defines none)') });
    const fine = mendedFormulaOf('```excel\n=MATCH(B21,Reps,0)\n```', 'stop', {
      sheetnames: ['Sheet1'],
      definedNames: ['Reps'],
    });
    expect(fine).toEqual({ formula: '=MATCH(B21,Reps,0)', mends: [] });
  });

  it("reads a workbook's defined names from its index", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-defined-'));
    const file = path.join(dir, 'named.xlsx');
    pythonWorkbook(file, { Sheet1: { A1: 'Rep', A2: 'Ann' } }, { Reps: 'Sheet1!$A$2:$A$9' });
    expect((await openWorkbookValues(file)).definedNames).toEqual(['Reps']);
  });
});

describe('a formula that reads no cell (checked-vote-v9)', () => {
  it('is told apart from formulas that read cells, ranges, names, or depend on position or time', () => {
    expect(readsNoCell('=IFERROR(0,"")', false, [])).toBe(true);
    expect(readsNoCell('=0.1*100', false, [])).toBe(true);
    expect(readsNoCell('=SUM(A:A)', false, [])).toBe(false);
    expect(readsNoCell('=SUM(2:2)', false, [])).toBe(false);
    expect(readsNoCell('=Rate*2', false, ['Rate'])).toBe(false);
    expect(readsNoCell('=ROW()-1', false, [])).toBe(false);
    expect(readsNoCell('=TODAY()', false, [])).toBe(false);
    expect(readsNoCell('=INDIRECT("B"&2)', false, [])).toBe(false);
    expect(readsNoCell('=A1', true, [])).toBe(false);
  });

  it('fails the candidate with the cause, and leaves a formula reading the data alone', async () => {
    const books = inputs({ Sheet1: { A1: 'Stage', A2: 'Won', B2: 5, A3: 'Lost', B3: 7 } });
    const region = formulaRegionOf('C2:C3')!;
    expect(await formulaProblems(books, '=IFERROR(0,"")', region)).toEqual([
      {
        kind: 'no_reference',
        detail:
          'the formula reads no cell: it gives the same value in every cell of C2:C3, whatever the data; write it to compute the answer from the cells that hold the data',
      },
    ]);
    expect(await formulaProblems(books, '=B2*2', region)).toEqual([]);
  });
});

describe('a lookup of a label whose value is beside it (checked-vote-v9)', () => {
  // 50066's shape: "Search Name:" in A2 and the name searched for in B2; the people on another sheet.
  const people: SheetCells = {
    'Personal Data': { A1: 'Name', B1: 'Address', A2: 'John Smith', B2: '1 Main St', A3: 'Jane Doe', B3: '2 North St' },
    'Updated Data': { A2: 'Search Name:', B2: 'Jane Doe', A5: 'Name', A6: 'Address' },
  };
  const books = inputs(people, people);
  const region = formulaRegionOf("'Updated Data'!B5:B6")!;

  it('fails it and names the cell to look up instead, anchored for the fill', async () => {
    const formula = "=INDEX('Personal Data'!$A$1:$B$3,MATCH(A2,'Personal Data'!$A$1:$A$3,0),1)";
    expect(await formulaProblems(books, formula, region)).toEqual([
      {
        kind: 'lookup_miss',
        testCase: 1,
        detail:
          "in B5, MATCH(A2,'Personal Data'!$A$1:$A$3,0) looks for \"Search Name:\" (from A2), which 'Personal Data'!A1:A3 does not hold; the value beside it is there ('Personal Data'!A3): look up $B$2 instead of A2",
      },
    ]);
  });

  it('passes the lookup of the value itself, and a miss with nothing beside it in the range', async () => {
    const right = "=INDEX('Personal Data'!$A$1:$B$3,MATCH($B$2,'Personal Data'!$A$1:$A$3,0),ROW()-4)";
    expect(await formulaProblems(books, right, region)).toEqual([]);
    const stranger = inputs({ ...people, 'Updated Data': { A2: 'Nobody', B2: 'Nobody else', A5: 'Name' } });
    const miss = "=INDEX('Personal Data'!$A$1:$B$3,MATCH(A2,'Personal Data'!$A$1:$A$3,0),1)";
    expect(await formulaProblems(stranger, miss, region)).toEqual([]);
  });
});

describe('an empty lookup column moved to the column holding the values looked up (checked-vote-v10)', () => {
  // dev20's 18645, as the 1.5B wrote it: the stage names are in Data!A (from row 1, no header), their shares in B.
  const books = [1, 2, 3].map((n) => ({
    testCase: n,
    file: path.join(DEV20, 'spreadsheet', '18645', `${n}_18645_input.xlsx`),
  }));
  const region = formulaRegionOf("'Opportunities'!G2:G3")!;
  const mendTwice = async (formula: string) => {
    const once = withSwaps(formula, (await formulaFindings(books, formula, region)).swaps);
    return withSwaps(once, (await formulaFindings(books, once, region)).swaps);
  };

  it('moves the searched column to the stage names (not the nearest data), the returned one beside them', async () => {
    const found = await formulaFindings(
      books,
      '=INDEX(Data!$C$2:$C$6, MATCH(opportunities!$D2, Data!$D$2:$D$6, 0)) * opportunities!$E2',
      region,
    );
    expect(found.swaps).toEqual([
      { from: 'Data!$C$2:$C$6', to: 'Data!$B$2:$B$6', because: 'empty_reference' },
      { from: 'Data!$D$2:$D$6', to: 'Data!$A$2:$A$6', because: 'empty_reference' },
    ]);
    // The next mend starts both at row 1, where the first stage is: the answer's VLOOKUP(D2,Data!$A$1:$B$6,2,FALSE).
    expect(
      await mendTwice('=INDEX(Data!$C$2:$C$6, MATCH(opportunities!$D2, Data!$D$2:$D$6, 0)) * opportunities!$E2'),
    ).toBe('=INDEX(Data!$B$1:$B$6, MATCH(opportunities!$D2, Data!$A$1:$A$6, 0)) * opportunities!$E2');
    expect(await mendTwice('=IFERROR(E2*INDEX(Data!$G$2:$G$6, MATCH(D2,Data!$A$2:$A$6,0)), "")')).toBe(
      '=IFERROR(E2*INDEX(Data!$B$1:$B$6, MATCH(D2,Data!$A$1:$A$6,0)), "")',
    );
  });

  it('never moves two empty references onto the same data', async () => {
    // v10's second sample: G2 and $F2 both went to E2, and 0.5*E2*($E2="…") gave 0 in both cells and passed.
    const found = await formulaFindings(books, '=IFERROR(0.5*G2*($F2="03 Mutual Commitment"),0)', region);
    expect(found.swaps).toEqual([
      { from: 'G2', to: 'E2', because: 'empty_reference' },
      { from: '$F2', to: '$D2', because: 'empty_reference' },
    ]);
  });
});

describe('a formula computing with a cell that holds text (checked-vote-v9)', () => {
  // 54057's shape: sample codes in B, results in C, the limits table's header row of codes in G2:J2, its ranges as
  // text in G3:J3 and as numbers in M:O.
  const limits: SheetCells = {
    Sheet1: {
      B3: 'A61',
      C3: 0.14,
      B4: 'A33',
      C4: 0.04,
      H2: 'A33',
      H3: '3%-5%',
      K3: 'Pass',
      M2: 'A61',
      N2: 0.13,
      O2: 0.15,
      M3: 'A33',
      N3: 0.03,
      O3: 0.05,
    },
  };
  const books = inputs(limits, limits);
  const region = formulaRegionOf('D3:D4')!;

  it('fails it, naming the cell, its text and the operation', async () => {
    const formula = '=IF(AND(C3>=H2*0.95,C3<=K3*1.05),"Pass","Fail")';
    expect(await formulaProblems(books, formula, region)).toEqual([
      {
        kind: 'text_arithmetic',
        testCase: 1,
        detail:
          'H2 holds the text "A33", so H2*0.95 is #VALUE!: compute with the cells that hold the numbers it means (as the workbook view shows them)',
      },
    ]);
  });

  it('passes arithmetic on numbers and on text Excel reads as a number, and text that is only compared', async () => {
    const right = '=IF(AND($C3>=VLOOKUP($B3,$M$2:$O$3,2,FALSE),$C3<=VLOOKUP($B3,$M$2:$O$3,3,FALSE)),"Pass","Fail")';
    expect(await formulaProblems(books, right, region)).toEqual([]);
    expect(await formulaProblems(books, '=IF(B3=H2,C3*100,"")', region)).toEqual([]);
    const numericText = inputs({ Sheet1: { A3: ' 1,200.50 ', B3: '15%', C3: '2020-07-01', E3: 'x' } });
    expect(await formulaProblems(numericText, '=A3*2+B3-C3/1', region)).toEqual([]);
  });
});

describe("the harness's own mends from the causes its checks name (checked-vote-v9)", () => {
  it('swaps whole references at once, outside text, and leaves longer references and other sheets alone', () => {
    const formula = '=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$A4,$K$7:$K$57,"<="&EOMONTH($A4,0))&"$A4"&$A40&Old!$A4';
    const swaps = [
      { from: '$A4', to: '$B4', because: 'empty_reference' },
      { from: '$K$7:$K$57', to: '$L$7:$L$57', because: 'criteria_mismatch' },
      { from: '$L$7:$L$57', to: '$K$7:$K$57', because: 'criteria_mismatch' },
    ];
    expect(withSwaps(formula, swaps)).toBe(
      '=SUMIFS($K$7:$K$57,$L$7:$L$57,">="&$B4,$L$7:$L$57,"<="&EOMONTH($B4,0))&"$A4"&$A40&Old!$A4',
    );
  });

  it("names 57105's swaps at once: the empty $A4's month column, and the swapped date and amount ranges", async () => {
    // 57105's shape: months in B (A empty), amounts in K, payment dates in L.
    const cells: SheetCells['Sheet1'] = { B3: 'MONTH', B4: { date: '2020-07-01' }, B5: { date: '2020-08-01' } };
    for (let r = 7; r <= 10; r++) Object.assign(cells, { [`K${r}`]: 100, [`L${r}`]: { date: `2020-07-1${r - 7}` } });
    const books = inputs({ Sheet1: cells }, { Sheet1: cells });
    const region = formulaRegionOf('C4:C5')!;
    const forum = '=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$A4,$K$7:$K$57,"<="&EOMONTH($A4,0))';
    const found = await formulaFindings(books, forum, region);
    expect(found.problems.map((p) => p.kind)).toEqual(['empty_reference', 'criteria_mismatch']);
    expect(found.swaps.map((s) => `${s.from} -> ${s.to}`)).toEqual([
      '$A4 -> $B4',
      '$K$7:$K$57 -> $L$7:$L$57',
      '$L$7:$L$57 -> $K$7:$K$57',
    ]);
    const mended = withSwaps(forum, found.swaps);
    expect(mended).toBe('=SUMIFS($K$7:$K$57,$L$7:$L$57,">="&$B4,$L$7:$L$57,"<="&EOMONTH($B4,0))');
    expect(await formulaFindings(books, mended, region)).toEqual({ problems: [], swaps: [] });
  });

  it("names the label's value as the lookup's swap", async () => {
    const people: SheetCells = {
      'Personal Data': { A1: 'Name', A2: 'John Smith', A3: 'Jane Doe' },
      'Updated Data': { A2: 'Search Name:', B2: 'Jane Doe', A5: 'Name' },
    };
    const region = formulaRegionOf("'Updated Data'!B5:B6")!;
    const formula = "=INDEX('Personal Data'!$A$1:$A$3,MATCH(A2,'Personal Data'!$A$1:$A$3,0))";
    const found = await formulaFindings(inputs(people), formula, region);
    expect(found.swaps).toEqual([{ from: 'A2', to: '$B$2', because: 'lookup_miss' }]);
    expect(withSwaps(formula, found.swaps)).toBe(
      "=INDEX('Personal Data'!$A$1:$A$3,MATCH($B$2,'Personal Data'!$A$1:$A$3,0))",
    );
  });
});

describe('a fixed range that starts below the first rows of its data (checked-vote-v9)', () => {
  // 57105 as it is: the payments from row 4 under the headers of row 3; the forum formula's ranges start at row 7.
  const cells: SheetCells['Sheet1'] = { B3: 'MONTH', K3: 'AMOUNT DUE', L3: 'DATE PAID', B4: { date: '2020-07-01' } };
  Object.assign(cells, { B5: { date: '2021-01-01' } });
  const paid = ['2021-01-07', '2021-01-08', '2021-01-09', '2020-07-12', '2020-07-13', '2020-07-15', '2020-07-18'];
  paid.forEach((day, i) => Object.assign(cells, { [`K${i + 4}`]: 100, [`L${i + 4}`]: { date: day } }));
  const books = inputs({ Sheet1: cells });
  const region = formulaRegionOf('C4:C5')!;

  it('fails it, says which rows it leaves out, and the mend starts every such range at its data', async () => {
    const forum = '=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$A4,$K$7:$K$57,"<="&EOMONTH($A4,0))';
    const found = await formulaFindings(books, forum, region);
    expect(found.problems.map((p) => p.kind)).toEqual(['empty_reference', 'criteria_mismatch', 'late_start']);
    expect(found.problems[2].detail).toBe(
      '$L$7:$L$57 starts below its column\'s first data: L4:L6 (under "DATE PAID") hold more of it (e.g. datetime(2021-01-07 00:00:00)), left out: use $L$4:$L$57; $K$7:$K$57 starts below its column\'s first data: K4:K6 (under "AMOUNT DUE") hold more of it (e.g. 100), left out: use $K$4:$K$57',
    );
    const mended = withSwaps(forum, found.swaps);
    expect(mended).toBe('=SUMIFS($K$4:$K$57,$L$4:$L$57,">="&$B4,$L$4:$L$57,"<="&EOMONTH($B4,0))');
    expect(await formulaFindings(books, mended, region)).toEqual({ problems: [], swaps: [] });
  });

  it('leaves a relative window, a short range and a range starting at its data alone', async () => {
    expect(await formulaProblems(books, '=SUM(K5:K7)', region)).toEqual([]);
    expect(await formulaProblems(books, '=SUM($K$6:$K$7)', region)).toEqual([]);
    expect(await formulaProblems(books, '=SUMIFS($K$4:$K$57,$L$4:$L$57,">="&$B4)', region)).toEqual([]);
  });
});

describe('a lookup range that starts below its first value (checked-vote-v9)', () => {
  // 18645's shape: the stages on Data from A1, without a header row; looked up from Opportunities!D.
  const data = { A1: '00 Targeting', B1: 0, A2: '01 Talks', B2: 0.1, A3: '02 Offer', B3: 0.5 };
  const opportunities = { D1: 'Stage', E1: 'Revenue', D2: '00 Targeting', E2: 1000, D3: '02 Offer', E3: 2000 };
  const books = inputs({ Opportunities: opportunities, Data: data });
  const region = formulaRegionOf("'Opportunities'!G2:G3")!;

  it("widens the searched range to the value's row, and the ranges beside it alike", async () => {
    const vlookup = '=IFERROR(E2*VLOOKUP(D2,Data!$A$2:$B$3,2,FALSE),"")';
    const found = await formulaFindings(books, vlookup, region);
    expect(withSwaps(vlookup, found.swaps)).toBe('=IFERROR(E2*VLOOKUP(D2,Data!$A$1:$B$3,2,FALSE),"")');
    const match = '=E2*INDEX(Data!$B$2:$B$3,MATCH(D2,Data!$A$2:$A$3,0))';
    const mended = withSwaps(match, (await formulaFindings(books, match, region)).swaps);
    expect(mended).toBe('=E2*INDEX(Data!$B$1:$B$3,MATCH(D2,Data!$A$1:$A$3,0))');
    expect(await formulaFindings(books, mended, region)).toEqual({ problems: [], swaps: [] });
  });
});

describe('the mends keep a formula whole (checked-vote-v9)', () => {
  it('starts the ranges parallel to a late one at the same row, and never swaps in data the formula already reads', async () => {
    const sheet = { A1: 'Item', B1: 'Amount', D1: 'Find', D2: 'x', E2: 5 };
    ['x', 'y', 'x', 'z', 'x', 'y', 'x', 'z'].forEach((item, i) =>
      Object.assign(sheet, { [`A${i + 2}`]: item, [`B${i + 2}`]: 10 * (i + 1) }),
    );
    const books = inputs({ Sheet1: sheet });
    const region = formulaRegionOf('F2:F3')!;
    const late = '=SUMIFS($B$4:$B$9,$A$4:$A$9,$D2)';
    expect(withSwaps(late, (await formulaFindings(books, late, region)).swaps)).toBe(
      '=SUMIFS($B$2:$B$9,$A$2:$A$9,$D2)',
    );
    // G2 is empty and E2 beside it holds data, but the formula already reads E2: no swap.
    const twice = '=IFERROR(E2*(G2/100),"")';
    const found = await formulaFindings(books, twice, region);
    expect(found.problems.map((p) => p.kind)).toEqual(['empty_reference']);
    expect(found.swaps).toEqual([]);
  });
});
