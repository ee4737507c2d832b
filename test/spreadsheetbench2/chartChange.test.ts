/**
 * A chart counts as a change on SpreadsheetBench 2 chart tasks (checked_vote through its adapter): a workbook's charts
 * summarised by what they show, the same whoever wrote them (openpyxl, or LibreOffice after recalculation) and
 * different when a chart is added or retitled, the same when it is restyled only (why: chartChange.ts); checked_vote's
 * `unchanged` check passes a candidate whose answer cells are as the input had them but whose charts changed, only
 * where the adapter marks the task as a chart task. The run end to end (a scripted model's openpyxl chart program
 * submitted and judged): visualizationRun.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartSummaries } from '../../benchmarks/workbook/chartParts';
import { openPackage, WorkbookReadError } from '../../benchmarks/workbook/ooxmlPackage';
import { checkCandidate, type CaseEvidence } from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { adaptedManifest } from '../../benchmarks/spreadsheetbench2/checkedVote/adapter';
import { chartsCountAsChange, chartsDiffer } from '../../benchmarks/workbook/chartChange';
import type { RunManifest } from '../../lib/runStore/manifest';
import { exportByLibreOffice } from '../helpers/libreofficeExport';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-chart-change-'));
const file = (name: string) => path.join(tmp, name);

const MAKE = [
  'import sys, os, openpyxl',
  'from openpyxl.chart import BarChart, LineChart, Reference',
  'd = sys.argv[1]',
  'wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Data"',
  'for r in range(1, 6): ws.append([f"r{r}", r * 10])',
  'ws["C1"] = "=B1*2"', // a formula, so that LibreOffice really rewrites the workbook when it recalculates it
  'wb.save(os.path.join(d, "plain.xlsx"))',
  'c = BarChart(); c.title = "Values"; c.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(c, "D2")',
  'wb.save(os.path.join(d, "bar.xlsx"))',
  'again = openpyxl.load_workbook(os.path.join(d, "bar.xlsx")); again.save(os.path.join(d, "bar-resaved.xlsx"))',
  'other = openpyxl.load_workbook(os.path.join(d, "bar.xlsx")); other["Data"]._charts[0].title = "Other"',
  'other.save(os.path.join(d, "bar-retitled.xlsx"))',
  // The same chart restyled only: a green series, value labels, the legend below, an axis title.
  'from openpyxl.chart.label import DataLabelList',
  'st = openpyxl.load_workbook(os.path.join(d, "bar.xlsx")); ch = st["Data"]._charts[0]',
  'ch.series[0].graphicalProperties.solidFill = "00AA00"; ch.dataLabels = DataLabelList(); ch.dataLabels.showVal = True',
  'ch.legend.position = "b"; ch.y_axis.title = "Amount"; st.save(os.path.join(d, "bar-restyled.xlsx"))',
  'line = openpyxl.load_workbook(os.path.join(d, "plain.xlsx")); l = LineChart(); l.title = "Values"',
  'l.add_data(Reference(line["Data"], min_col=2, min_row=1, max_row=5)); line["Data"].add_chart(l, "D2")',
  'line.save(os.path.join(d, "line.xlsx"))',
].join('\n');

beforeAll(async () => {
  if (!hasSandboxPython) return;
  runPython(['-c', MAKE, tmp], '');
  await exportByLibreOffice([[file('bar.xlsx'), file('bar-by-libreoffice.xlsx')]]);
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!hasSandboxPython)("a workbook's charts by what they show", () => {
  it('none without charts; type, title and series; the same after a resave or LibreOffice; changed when retitled', () => {
    expect(chartSummaries(file('plain.xlsx'))).toEqual([]);
    const bar = chartSummaries(file('bar.xlsx'));
    expect(bar.map((s) => JSON.parse(s) as unknown)).toEqual([
      { types: ['barChart'], barDir: ['col'], title: 'Values', series: ['Data!B1:B5'] },
    ]);
    expect(chartSummaries(file('bar-resaved.xlsx'))).toEqual(bar);
    expect(chartSummaries(file('bar-by-libreoffice.xlsx'))).toEqual(bar);
    expect(chartsDiffer(file('plain.xlsx'), file('bar.xlsx'))).toBe(true); // a chart added
    expect(chartsDiffer(file('bar.xlsx'), file('plain.xlsx'))).toBe(true); // removed
    expect(chartsDiffer(file('bar.xlsx'), file('bar-retitled.xlsx'))).toBe(true);
    expect(chartsDiffer(file('bar.xlsx'), file('line.xlsx'))).toBe(true); // another type
    expect(chartsDiffer(file('bar.xlsx'), file('bar-by-libreoffice.xlsx'))).toBe(false);
  });

  it('a chart restyled only is no change: its formatting is not what a chart task asks, and writers rewrite it', () => {
    const chartXml = (f: string) => {
      const pkg = openPackage(file(f));
      const part = pkg.partNames().find((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))!;
      return pkg.text(part) ?? '';
    };
    expect(chartXml('bar-restyled.xlsx')).toContain('00AA00'); // really restyled
    expect(chartXml('bar-restyled.xlsx')).not.toBe(chartXml('bar.xlsx'));
    expect(chartsDiffer(file('bar.xlsx'), file('bar-restyled.xlsx'))).toBe(false);
    // Why the formatting is left out (chartChange.ts): LibreOffice, saving the same unstyled chart, writes formatting
    // of its own (explicit colours), so a formatting difference is often the writer's, not the program's.
    expect(chartXml('bar.xlsx')).not.toMatch(/srgbClr/);
    expect(chartXml('bar-by-libreoffice.xlsx')).toMatch(/srgbClr/);
  });

  it('a file that is no workbook: an error for the summary, no change for the check (other checks name it)', () => {
    writeFileSync(file('junk.xlsx'), 'no workbook');
    expect(() => chartSummaries(file('junk.xlsx'))).toThrow(WorkbookReadError);
    expect(chartsDiffer(file('plain.xlsx'), file('junk.xlsx'))).toBe(false);
  });
});

describe("checked_vote's unchanged check on a chart task", () => {
  const region = { cells: [{ address: 'A1', value: 'r1', uncachedFormula: false }], missingSheets: [] };
  const evidence = (extra: Partial<CaseEvidence>): CaseEvidence => ({
    testCase: 1,
    error: '',
    timedOut: false,
    outputProduced: true,
    output: region,
    input: region,
    ...extra,
  });

  it('answer cells as the input had them: unchanged, unless the charts changed', () => {
    expect(checkCandidate([evidence({})]).problems.map((p) => p.kind)).toEqual(['unchanged']);
    expect(checkCandidate([evidence({ chartsChanged: false })]).problems.map((p) => p.kind)).toEqual(['unchanged']);
    expect(checkCandidate([evidence({ chartsChanged: true })])).toMatchObject({ passed: true, problems: [] });
  });

  it('the adapter marks Visualization tasks only', () => {
    const v2 = { runId: 'r', benchmark: 'spreadsheetbench2', agent: 'checked_vote' } as RunManifest;
    const vis = adaptedManifest(v2, { category: 'Visualization' });
    expect(vis.benchmarkSettings).toEqual({ chartsCountAsChange: true });
    expect(chartsCountAsChange(vis)).toBe(true);
    const other = adaptedManifest(v2, { category: 'Financial_Model' });
    expect(other.benchmarkSettings).toBeUndefined();
    expect(chartsCountAsChange(other)).toBe(false);
  });
});
