import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formulaOf,
  formulaProblem,
  normalizeFunctions,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaReply';
import { mendedFormulaOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaMend';
import { fillDescription, formulaRegionOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaRegion';
import { formulaSolveCode } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaProgram';
import {
  FORMULA_INSTRUCTIONS,
  FORMULA_SYSTEM_PROMPT,
  formulaRepairMessage,
  formulaTaskPrompt,
  noFormulaMessage,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaPrompt';
import { framedProgram } from '../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import { SYSTEM_PROMPT, taskContext, taskPrompt } from '../../benchmarks/spreadsheetbench/agents/checkedVote/prompt';
import { FORMULA_EXAMPLES } from '../../benchmarks/spreadsheetbench/agents/checkedVote/examples';
import { checkCandidate } from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

describe('formula replies', () => {
  it('takes the formula from an ```excel block, prose around it ignored', () => {
    expect(formulaOf('Use this:\n```excel\n=SUMIFS($K:$K,$L:$L,B4)\n```\nIt sums K.', 'stop')).toEqual({
      formula: '=SUMIFS($K:$K,$L:$L,B4)',
    });
    expect(formulaOf('```\n  =A1+B1  \n```', 'stop')).toEqual({ formula: '=A1+B1' });
    // A block in another language is not a formula block; the bare line after it is taken.
    expect(formulaOf('```python\nx = 1\n```\n=B4*2', 'stop')).toEqual({ formula: '=B4*2' });
  });

  it('takes a bare "=…" line or an inline `=…` span when there is no block', () => {
    expect(formulaOf('The formula for C4 is:\n\n=IF(B4<=20,0,B4-20).', 'stop')).toEqual({
      formula: '=IF(B4<=20,0,B4-20)',
    });
    expect(formulaOf('- =MAX(0,B4)', 'stop')).toEqual({ formula: '=MAX(0,B4)' });
    expect(formulaOf('Put `=VLOOKUP(D2,Data!$A$1:$B$6,2,FALSE)` in G2.', 'stop')).toEqual({
      formula: '=VLOOKUP(D2,Data!$A$1:$B$6,2,FALSE)',
    });
  });

  it('a reply without a formula, or a broken one, is a problem to feed back, never a crash', () => {
    expect(formulaOf('Use a VBA macro.', 'stop')).toEqual({
      problem: 'the reply holds no formula (no line starting with "=")',
    });
    expect(formulaOf('', 'stop')).toHaveProperty('problem');
    expect(formulaOf('```excel\nSUM(A1:A3)\n```', 'stop')).toHaveProperty('problem');
    expect(formulaOf('```excel\n=SUM(A1:A3\n```', 'stop')).toEqual({
      problem: 'the formula leaves 1 parenthesis(es) unclosed',
    });
    expect(formulaOf('=IF(A1="x,1,2)', 'stop')).toEqual({ problem: 'the formula leaves a text string unclosed (")' });
    // Cut at the token limit: only a closed block counts.
    expect(formulaOf('Sure! The formula is\n=SUMIFS($K$4:$K$99,', 'length')).toHaveProperty('problem');
    expect(formulaOf('```excel\n=A1*2\n```\nExplanation: this multiplies', 'length')).toEqual({ formula: '=A1*2' });
    // Hostile text: a huge reply, control characters, nested fences.
    expect(formulaOf(`=${'A1+'.repeat(2_000)}A1`, 'stop')).toEqual({
      problem: 'the formula is longer than 2000 characters',
    });
    expect(formulaOf('```excel\n```excel\n=1\n```\n```', 'stop')).toEqual({ formula: '=1' });
    expect(formulaProblem('=A1\u0007')).toBe('the formula contains a line break or control character');
  });

  it('checks balance outside strings and sheet names only', () => {
    expect(formulaProblem(`='Sheet (1)'!A1&")"`)).toBeUndefined();
    expect(formulaProblem(`=IF(A1="""",1,2)`)).toBeUndefined();
    expect(formulaProblem(`='It''s'!A1`)).toBeUndefined();
    expect(formulaProblem('=A1)')).toBe('the formula closes a parenthesis it never opened');
    expect(formulaProblem("='Sheet1!A1")).toBe("the formula leaves a sheet name unclosed (')");
    expect(formulaProblem('=')).toBe('the formula is empty after "="');
  });
});

describe('function names', () => {
  it('names a function that does not exist with the nearest real one, before anything runs', () => {
    expect(formulaOf('```excel\n=SUMIFS($L:$L,$K:$K,"<="&EOM($A4,0))\n```', 'stop')).toEqual({
      problem: 'EOM is not an Excel function (did you mean EOMONTH?)',
    });
    expect(normalizeFunctions('=VLOKUP(A1,B:C,2,0)')).toEqual({
      problem: 'VLOKUP is not an Excel function (did you mean VLOOKUP?)',
    });
    expect(normalizeFunctions('=FROBNICATE(A1)')).toEqual({ problem: 'FROBNICATE is not an Excel function' });
    expect(normalizeFunctions('=TEXTSPLIT(A1,",")')).toMatchObject({
      problem: expect.stringMatching(
        /^TEXTSPLIT is not available here \(the workbook is calculated by LibreOffice 25\.2/,
      ),
    });
  });

  it('spells names as the file format wants: upper case, _xlfn. before post-2007 functions', () => {
    expect(normalizeFunctions('=iferror(index(A:A,match(B1,C:C,0)),"")')).toEqual({
      formula: '=IFERROR(INDEX(A:A,MATCH(B1,C:C,0)),"")',
    });
    expect(normalizeFunctions('=ifs(A1>0,1,TRUE(),2)')).toEqual({ formula: '=_xlfn.IFS(A1>0,1,TRUE(),2)' });
    // Dynamic-array functions LibreOffice 25.2 computes when spelled as Excel files spell them (FILTER and SORT with
    // `_xlfn._xlws.`); a name already prefixed is kept as it is.
    expect(normalizeFunctions('=xlookup(A1,$B$2:$B$9,$C$2:$C$9)')).toEqual({
      formula: '=_xlfn.XLOOKUP(A1,$B$2:$B$9,$C$2:$C$9)',
    });
    expect(normalizeFunctions('=INDEX(SORT($A$2:$A$9),ROWS($C$2:C2))+SUM(filter(B:B,B:B>1))')).toEqual({
      formula: '=INDEX(_xlfn._xlws.SORT($A$2:$A$9),ROWS($C$2:C2))+SUM(_xlfn._xlws.FILTER(B:B,B:B>1))',
    });
    expect(normalizeFunctions('=_xlfn._xlws.FILTER(A:A,B:B>1)')).toEqual({ formula: '=_xlfn._xlws.FILTER(A:A,B:B>1)' });
    expect(normalizeFunctions('=_xlfn.IFS(A1,1)+STDEV.S(A1:A9)')).toEqual({
      formula: '=_xlfn.IFS(A1,1)+_xlfn.STDEV.S(A1:A9)',
    });
    // Text and sheet names are never touched, even when they look like calls.
    expect(normalizeFunctions(`=IF(A1="sum(",'My sheet (2)'!A1,Sheet1!B2)`)).toEqual({
      formula: `=IF(A1="sum(",'My sheet (2)'!A1,Sheet1!B2)`,
    });
  });
});

describe('sheet references', () => {
  const sheets = ['Personal Data', 'Updated Data', "It's"];
  const mended = (formula: string, names: readonly string[] = sheets) =>
    mendedFormulaOf(`\`\`\`excel\n${formula}\n\`\`\``, 'stop', { sheetnames: names, definedNames: [] });

  it('names a sheet the workbook does not have and no sheet of it matches, with the sheets it has', () => {
    expect(mended('=VLOOKUP(A2,Sheet4!A1:E4,2,FALSE)')).toEqual({
      problem:
        "the formula refers to sheet 'Sheet4', which this workbook does not have (its sheets: 'Personal Data', 'Updated Data', 'It's')",
    });
    expect(mended(`=IF(A1="a""b",'Nope'!A1,2)`)).toMatchObject({ problem: /^the formula refers to sheet 'Nope'/ });
    // "Data" is in two sheets' names: which one is meant is not known.
    expect(mended('=Data!A1')).toMatchObject({ problem: /^the formula refers to sheet 'Data'/ });
  });

  it('accepts real sheets (any case, quoted, with doubled quotes) and ignores text that looks like a reference', () => {
    for (const formula of [
      "=INDEX('personal data'!A:E,MATCH(A2,'Personal Data'!A1:A4,0))",
      "='It''s'!A1",
      '=IF(A1="Sheet1!x",1,2)',
      '=A1+$B$2',
    ])
      expect(mended(formula)).toEqual({ formula, mends: [] });
  });

  it("reads a sheet name meant unambiguously as the workbook's own, and says so", () => {
    expect(mended("=INDEX(PersonalData!$A$1:$H$4,MATCH(B5,'personal_data'!$A$1:$A$4,0))")).toEqual({
      formula: "=INDEX('Personal Data'!$A$1:$H$4,MATCH(B5,'Personal Data'!$A$1:$A$4,0))",
      mends: ["read sheet 'personal_data' as 'Personal Data'", "read sheet 'PersonalData' as 'Personal Data'"],
    });
    expect(mended('=SUM(Rates!B2:B9)', ['Sea Freight Rates', 'Volume'])).toEqual({
      formula: "=SUM('Sea Freight Rates'!B2:B9)",
      mends: ["read sheet 'Rates' as 'Sea Freight Rates'"],
    });
    // Excel's default names count sheets.
    expect(mended('=SUM(Sheet2!B2:B9)+Sheet3!A1', ['Sea Freight Rates', 'Volume'])).toEqual({
      problem:
        "the formula refers to sheet 'Sheet3', which this workbook does not have (its sheets: 'Sea Freight Rates', 'Volume')",
    });
    expect(mended('=SUM(Sheet2!B2:B9)', ['Sea Freight Rates', 'Volume'])).toEqual({
      formula: '=SUM(Volume!B2:B9)',
      mends: ["read sheet 'Sheet2' as 'Volume'"],
    });
    // One sheet: any other name can only mean it.
    expect(mended('=VLOOKUP(A2,lookup_table!$A$2:$C$9,3,0)', ['Sheet1'])).toEqual({
      formula: '=VLOOKUP(A2,Sheet1!$A$2:$C$9,3,0)',
      mends: ["read sheet 'lookup_table' as 'Sheet1'"],
    });
  });
});

describe('formula mends', () => {
  const mended = (formula: string) =>
    mendedFormulaOf(`\`\`\`excel\n${formula}\n\`\`\``, 'stop', {
      sheetnames: ['Sheet1'],
      definedNames: [],
    });

  it('joins conditions written with AND/OR between them as AND()/OR(), at any depth, text untouched', () => {
    expect(mended('=IF(C3>=H2*0.95 AND C3<=K3*1.05,"Pass","Fail")')).toEqual({
      formula: '=IF(AND(C3>=H2*0.95,C3<=K3*1.05),"Pass","Fail")',
      mends: ['wrote the conditions joined by AND/OR as AND(…)/OR(…)'],
    });
    expect(mended('=IF(A1>1 and B1<2 or C1=3,IF(D1="x AND y" OR E1,1,2),0)')).toEqual({
      formula: '=IF(OR(AND(A1>1,B1<2),C1=3),IF(OR(D1="x AND y",E1),1,2),0)',
      mends: ['wrote the conditions joined by AND/OR as AND(…)/OR(…)'],
    });
    expect(mended('=IF(AND(A1>1,B1<2),"a AND b",0)')).toEqual({
      formula: '=IF(AND(A1>1,B1<2),"a AND b",0)',
      mends: [],
    });
  });

  it('mends ==, != and up to two parentheses left open; more is fed back', () => {
    expect(mended('=IF(A1==1,IF(B1!=2,"a","b"),"c"')).toEqual({
      formula: '=IF(A1=1,IF(B1<>2,"a","b"),"c")',
      mends: ['wrote "==" as "="', 'wrote "!=" as "<>"', 'closed 1 parenthesis(es) left open at the end'],
    });
    expect(mended('=IF(A1="==",1,2)')).toEqual({ formula: '=IF(A1="==",1,2)', mends: [] });
    expect(mended('=IF(A1,IF(B1,IF(C1,1')).toEqual({ problem: 'the formula leaves 3 parenthesis(es) unclosed' });
    expect(mended('=A1)')).toEqual({ problem: 'the formula closes a parenthesis it never opened' });
  });

  it('reads a misspelt function as its nearest real one; an unknown one without a near name is fed back', () => {
    expect(mended('=SUMIFS($L:$L,$K:$K,"<="&EOM($A4,0))+VALUES(B1)+values(B2)')).toEqual({
      formula: '=SUMIFS($L:$L,$K:$K,"<="&EOMONTH($A4,0))+VALUE(B1)+VALUE(B2)',
      mends: ['read EOM as EOMONTH', 'read VALUES as VALUE'],
    });
    expect(mended('=XYZZYQ(A1)')).toEqual({ problem: 'XYZZYQ is not an Excel function' });
    expect(mended('=ArrayFormula(SUM((A2:A9="x")*B2:B9))&"ARRAYFORMULA("')).toEqual({
      formula: '=SUM((A2:A9="x")*B2:B9)&"ARRAYFORMULA("',
      mends: ['dropped ARRAYFORMULA (Google Sheets), which Excel does not have'],
    });
    expect(mended('=TAKE(A1:A9,2)')).toMatchObject({ problem: /^TAKE is not available here/ });
  });
});

describe('formula regions', () => {
  it('one rectangle of cells is a region (first cell, size); anything else is not', () => {
    expect(formulaRegionOf('C4:C15')).toEqual({ sheet: null, first: 'C4', range: 'C4:C15', rows: 12, columns: 1 });
    expect(formulaRegionOf("'Sea Freight Rates'!H2:H191")).toMatchObject({ sheet: 'Sea Freight Rates', rows: 190 });
    expect(formulaRegionOf("Updated Data'!B5:B9")).toMatchObject({ sheet: 'Updated Data', first: 'B5' });
    expect(formulaRegionOf('C4')).toEqual({ sheet: null, first: 'C4', range: 'C4', rows: 1, columns: 1 });
    expect(formulaRegionOf('J5:L16')).toMatchObject({ first: 'J5', rows: 12, columns: 3 });
    expect(formulaRegionOf('D1,D5,D9')).toBeUndefined();
    expect(formulaRegionOf("'Sheet3'!A:G")).toBeUndefined();
    expect(formulaRegionOf('A1:ZZ9999')).toBeUndefined();
  });

  it('tells the model which cell to write and how it is filled', () => {
    expect(fillDescription(formulaRegionOf('J5:L16')!)).toMatch(
      /first cell J5; the harness fills it down to row 16 and right to column L/,
    );
    expect(fillDescription(formulaRegionOf('C4')!)).toBe('The answer region is the single cell C4.');
    const task = {
      id: 1,
      instruction: 'Total per month.',
      instruction_type: 'Cell-Level Manipulation',
      answer_position: 'C4:C15',
      spreadsheet_path: 'spreadsheet/1',
    };
    const user = formulaTaskPrompt(task as never, 'VIEW', formulaRegionOf('C4:C15')!);
    // All static text (role, how to reply, worked examples) is the system prompt: one KV prefix for every task.
    expect(FORMULA_SYSTEM_PROMPT.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(FORMULA_SYSTEM_PROMPT).toContain(FORMULA_INSTRUCTIONS);
    expect(FORMULA_SYSTEM_PROMPT).toContain(FORMULA_EXAMPLES);
    expect(FORMULA_SYSTEM_PROMPT).not.toMatch(/Total per month|VIEW/);
    expect(user).not.toContain(FORMULA_INSTRUCTIONS);
    expect(user.indexOf('VIEW')).toBeLessThan(user.indexOf('Total per month.'));
    expect(user).toMatch(/Write the formula for C4 in one ```excel block\.$/);
    // The task's context is the same text in both kinds' user messages.
    const python = taskPrompt(task as never, 'VIEW');
    const shared = taskContext(task as never, 'VIEW');
    expect(user.startsWith(shared) && python.startsWith(shared)).toBe(true);
  });

  it('every worked example replies with a formula the harness accepts', () => {
    const replies = [...FORMULA_EXAMPLES.matchAll(/```excel\n[^`]*```/g)].map((m) => m[0]);
    expect(replies).toHaveLength(6);
    for (const reply of replies) expect(formulaOf(reply, 'stop')).toHaveProperty('formula');
  });
});

describe('the fill program', () => {
  const python = (args: string[]) => execFileSync(sandboxPythonPath(), args, { stdio: 'pipe' }).toString();

  function runFill(formula: string, answerPosition: string, setup: string): Record<string, unknown> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-formula-'));
    const input = path.join(dir, 'in.xlsx');
    const output = path.join(dir, 'out.xlsx');
    python([
      '-c',
      `import openpyxl\nwb=openpyxl.Workbook()\nws=wb.active\nws.title='Data'\n${setup}\nwb.save(${JSON.stringify(input)})`,
    ]);
    writeFileSync(
      path.join(dir, 'p.py'),
      framedProgram(formulaSolveCode(formula, formulaRegionOf(answerPosition)!), { input, output }),
    );
    python([path.join(dir, 'p.py')]);
    const read = python([
      '-c',
      `import json, openpyxl\nws=openpyxl.load_workbook(${JSON.stringify(output)}).worksheets[0]\nprint(json.dumps({c.coordinate: c.value for row in ws.iter_rows() for c in row if c.value is not None}))`,
    ]);
    return JSON.parse(read) as Record<string, unknown>;
  }

  it('writes the formula into every cell, shifted as Excel fills down and right ($ anchors kept)', () => {
    const cells = runFill('=SUMIFS($E:$E,$B:$B,$I5,$C:$C,J$4)', 'J5:K6', "ws['A1'] = 1");
    expect(cells).toMatchObject({
      J5: '=SUMIFS($E:$E,$B:$B,$I5,$C:$C,J$4)',
      K5: '=SUMIFS($E:$E,$B:$B,$I5,$C:$C,K$4)',
      J6: '=SUMIFS($E:$E,$B:$B,$I6,$C:$C,J$4)',
      K6: '=SUMIFS($E:$E,$B:$B,$I6,$C:$C,K$4)',
    });
  });

  it('fills a named sheet and keeps strings with quotes; merged cells are skipped, not a crash', () => {
    const cells = runFill(`=IF(A2>1,"big ""x""",'Data'!B2)`, "'Data'!C2:C4", "ws['A2'] = 2\nws.merge_cells('B3:C3')");
    expect(cells.C2).toBe(`=IF(A2>1,"big ""x""",'Data'!B2)`);
    expect(cells.C3).toBeUndefined(); // inside the B3:C3 merge: it holds no value of its own
    expect(cells.C4).toBe(`=IF(A4>1,"big ""x""",'Data'!B4)`);
  });
});

describe('formula feedback', () => {
  it('names the formula, the region and what the check found, and asks for a corrected formula', () => {
    const check = checkCandidate([
      {
        testCase: 1,
        error: '',
        timedOut: false,
        outputProduced: true,
        output: { cells: [{ address: 'C4', value: '#NAME?', uncachedFormula: false }], missingSheets: [] },
        input: { cells: [{ address: 'C4', value: null, uncachedFormula: false }], missingSheets: [] },
      },
    ]);
    const region = formulaRegionOf('C4')!;
    const text = formulaRepairMessage('=XLOOKUP(B4,A:A,B:B)', region, check, {
      testCase: 1,
      region: { cells: [{ address: 'C4', value: '#NAME?', uncachedFormula: false }], missingSheets: [] },
    });
    expect(text).toContain('Your formula =XLOOKUP(B4,A:A,B:B) was filled across C4');
    expect(text).toContain('- input 1: 1 cell(s) hold Excel errors, e.g. C4 = "#NAME?"');
    expect(text).toMatch(/corrected formula for C4 in one ```excel block/);
    expect(text).toContain('#NAME? means a function name or a sheet name in the formula is not known.');
    expect(noFormulaMessage('the reply holds no formula', region)).toMatch(/one Excel formula for C4/);
  });
});
