/** SpreadsheetBench 2 scoring rules in isolation (expected values computed with openpyxl 3.1.5 / Python by hand). */
import { describe, expect, it } from 'vitest';
import { translateFormula } from '../../benchmarks/spreadsheetbench2/scoring/sharedFormula';
import { colourRgb, sameFontColour } from '../../benchmarks/spreadsheetbench2/scoring/fontColour';
import { compareCellFormula, compareCellValueV2 } from '../../benchmarks/spreadsheetbench2/scoring/compareCell';
import { generateCellNames, splitAnswerPosition } from '../../benchmarks/spreadsheetbench2/scoring/cellNames';

describe('shared formulas translate as openpyxl Translator does', () => {
  it.each([
    ['=A1+$B2*Sheet2!C3', 2, 1, '=B3+$B4*Sheet2!D5'],
    ['=SUM(A1:A3)&"A1"', 1, 2, '=SUM(C2:C4)&"A1"'],
    ["='P&L, 2024'!A1+LOG10(B1)", 1, 0, "='P&L, 2024'!A2+LOG10(B2)"],
    ['=SUM(A:A)+SUM(1:2)', 1, 1, '=SUM(B:B)+SUM(2:3)'],
  ])('%s moved by (%i, %i)', (f, dr, dc, want) => expect(translateFormula(f, dr, dc)).toBe(want));
});

describe('font colours as _get_color_rgb', () => {
  it('resolves theme colours with tint and ignores alpha', () => {
    expect(colourRgb({ type: 'theme', theme: 4, tint: 0.4 })).toBe('FF8EAADB');
    expect(colourRgb({ type: 'theme', theme: 1, tint: -0.5 })).toBe('FF000000');
    expect(colourRgb({ type: 'theme', theme: 12, tint: 0 })).toBe('00000000');
    expect(colourRgb({ type: 'indexed', indexed: 10 })).toBe('00000000');
    expect(sameFontColour(null, { type: 'rgb', rgb: 'FF000000' })).toBe(true);
    expect(sameFontColour({ type: 'theme', theme: 1, tint: 0 }, { type: 'rgb', rgb: '00000000' })).toBe(true);
    expect(sameFontColour({ type: 'rgb', rgb: 'FFFF0000' }, { type: 'rgb', rgb: 'FF000000' })).toBe(false);
  });
});

describe('cell values', () => {
  it('applies the 1% tolerance on raw numbers and on rounded numeric text', () => {
    expect(compareCellValueV2(100, 100.9)).toBe(true);
    expect(compareCellValueV2(100, 101.1)).toBe(false);
    expect(compareCellValueV2(0, 0.01)).toBe(true);
    expect(compareCellValueV2('1.234', 1.24)).toBe(true);
    expect(compareCellValueV2(true, 1)).toBe(true);
  });
  it('treats not-meaningful placeholders and None/""/0 alike', () => {
    expect(compareCellValueV2('#DIV/0!', ' n/a ')).toBe(true);
    expect(compareCellValueV2('#REF!', 'N/A')).toBe(false);
    expect(compareCellValueV2(null, 0)).toBe(true);
    expect(compareCellValueV2('', null)).toBe(true);
    expect(compareCellValueV2('x', null)).toBe(false);
  });
  it('compares formulas without $, case-insensitively, =+ as = (formula mode only)', () => {
    expect(compareCellFormula('=+$a$1*B2', '=A1*b2')).toBe(true);
    expect(compareCellValueV2('=+A1', '=A1')).toBe(false);
    expect(compareCellFormula({ kind: 'arrayFormula', text: '=A1:A2' }, { kind: 'arrayFormula', text: '=A1:A2' })).toBe(
      true,
    );
    expect(compareCellFormula({ kind: 'dataTableFormula' }, { kind: 'dataTableFormula' })).toBe(false);
  });
});

describe('answer positions', () => {
  it('keeps commas inside quoted sheet names and lists cells column by column', () => {
    expect(splitAnswerPosition("'ACC,Dil'!B2:C3, Sheet1!A1")).toEqual(["'ACC,Dil'!B2:C3", 'Sheet1!A1']);
    expect(generateCellNames('B2:C3')).toEqual(['B2', 'B3', 'C2', 'C3']);
  });
});
