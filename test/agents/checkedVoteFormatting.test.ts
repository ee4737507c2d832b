/**
 * A task asking for formatting (checked-vote-v10): a candidate that adds a conditional format or a fill to the answer
 * region and keeps its values passes the `unchanged` check (formattingChange.ts); one that only loads and saves the
 * input, or formats cells outside the region, still fails it, also after LibreOffice rewrote the output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formattingAdded } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formattingChange';
import { checkCandidate, type CaseEvidence } from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { readRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/regionCells';
import { exportByLibreOffice } from '../helpers/libreofficeExport';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'cv-formatting-'));
const file = (name: string) => path.join(tmp, name);
const REGION = "'Data'!E2:E8";

const MAKE = [
  'import sys, os, openpyxl',
  'from openpyxl.formatting.rule import FormulaRule',
  'from openpyxl.styles import PatternFill',
  'd = sys.argv[1]',
  'wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Data"',
  'ws.append(["Name", "Sheet", "Hyperlink"])',
  'for r in range(2, 6): ws.append([f"n{r}", f"S{r}", f"https://example.org/{r}" if r % 2 else None])',
  'for r in range(2, 6): ws[f"E{r}"] = ws[f"C{r}"].value',
  'ws["G1"] = "=1+1"', // a formula, so that LibreOffice really rewrites the workbook when it recalculates it
  'wb.save(os.path.join(d, "input.xlsx"))',
  'yellow = PatternFill(start_color="FFFF00", end_color="FFFF00", fill_type="solid")',
  'a = openpyxl.load_workbook(os.path.join(d, "input.xlsx")); a.save(os.path.join(d, "resaved.xlsx"))',
  'b = openpyxl.load_workbook(os.path.join(d, "input.xlsx"))',
  'b["Data"].conditional_formatting.add("E2:E8", FormulaRule(formula=["NOT(ISBLANK(E2))"], fill=yellow))',
  'b.save(os.path.join(d, "conditional.xlsx"))',
  'c = openpyxl.load_workbook(os.path.join(d, "input.xlsx")); c["Data"]["E3"].fill = yellow',
  'c.save(os.path.join(d, "filled.xlsx"))',
  'e = openpyxl.load_workbook(os.path.join(d, "input.xlsx")); e["Data"]["A3"].fill = yellow',
  'e["Data"].conditional_formatting.add("A2:A5", FormulaRule(formula=["A2<>\\"\\""], fill=yellow))',
  'e.save(os.path.join(d, "elsewhere.xlsx"))',
].join('\n');

beforeAll(async () => {
  if (!hasSandboxPython) return;
  runPython(['-c', MAKE, tmp], '');
  await exportByLibreOffice(['resaved', 'conditional', 'filled'].map((n) => [file(`${n}.xlsx`), file(`${n}-lo.xlsx`)]));
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!hasSandboxPython)('formatting added to the answer region', () => {
  it('counts a conditional format or a fill on an answer cell, as openpyxl and as LibreOffice write them', () => {
    for (const name of ['conditional', 'filled', 'conditional-lo', 'filled-lo'])
      expect(formattingAdded(file('input.xlsx'), file(`${name}.xlsx`), REGION), name).toBe(true);
  });

  it('does not count a load-and-save, LibreOffice rewriting the styles, or formatting outside the region', () => {
    for (const name of ['resaved', 'resaved-lo', 'elsewhere'])
      expect(formattingAdded(file('input.xlsx'), file(`${name}.xlsx`), REGION), name).toBe(false);
    expect(formattingAdded(file('input.xlsx'), file('missing.xlsx'), REGION)).toBe(false);
  });

  it('lets a formatted candidate whose values are unchanged pass, and still fails one that formatted nothing', async () => {
    const input = await readRegion(file('input.xlsx'), REGION);
    const evidence = async (name: string): Promise<CaseEvidence> => ({
      testCase: 1,
      error: '',
      timedOut: false,
      outputProduced: true,
      output: await readRegion(file(`${name}.xlsx`), REGION),
      input,
      formattingAdded: formattingAdded(file('input.xlsx'), file(`${name}.xlsx`), REGION),
    });
    const formatted = checkCandidate([await evidence('conditional')], [], { formatting: true });
    expect(formatted.problems).toEqual([]);
    const nothing = checkCandidate([await evidence('resaved')], [], { formatting: true });
    expect(nothing.problems.map((p) => p.kind)).toContain('unchanged');
  });
});
