import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAnalysisSuite } from '../../benchmarks/analysis/dataset';
import { CHECK_FAILED_LEAD } from '../../analysis/grounding/correctnessNote';
import { numbersIn, scoreAnalysis } from '../../benchmarks/analysis/score';

const SUITE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/analysis');
const ws = mkdtempSync(path.join(os.tmpdir(), 'sb-score-'));
const out = (answer: string, visualizations: any[] = []) => ({ answer, visualizations, workspaceDir: ws });

describe('analysis suite scorer', () => {
  it('loads the bundled suite: 21 requests over the five levels, each with an answer', async () => {
    const suite = await loadAnalysisSuite(SUITE);
    expect(suite.tasks).toHaveLength(21);
    expect(new Set(suite.tasks.map((t) => t.level))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it('numbers: finds them in prose and markdown, within the tolerance only', async () => {
    expect(numbersIn('Total **1,988** units; -0.5 and 6.2e3')).toEqual([1988, -0.5, 6200]);
    const expected = { kind: 'number' as const, value: 0.99, tolerance: 0.01 };
    expect((await scoreAnalysis(expected, out('r = 0.99'))).pass).toBe(true);
    expect((await scoreAnalysis(expected, out('r = 0.95'))).pass).toBe(false);
  });

  it('an answer flagged by the check is scored without the note: the saved table the note quotes does not count', async () => {
    const expected = { kind: 'number' as const, value: 1988, tolerance: 0.01 };
    const flagged = `The total is 36.\n\n${CHECK_FAILED_LEAD} this answer is likely wrong: none of its numbers are in what the code computed.\n\n\`\`\`\ntotal\n1988\n\`\`\``;
    expect((await scoreAnalysis(expected, out(flagged))).pass).toBe(false);
    expect((await scoreAnalysis(expected, out('The total is 1988.'))).pass).toBe(true);
  });

  it('lists must be in order; text must be present', async () => {
    const list = { kind: 'list' as const, values: ['b', 'c'] };
    expect((await scoreAnalysis(list, out('b, c'))).pass).toBe(true);
    expect((await scoreAnalysis(list, out('c, b'))).pass).toBe(false);
    expect((await scoreAnalysis({ kind: 'text', contains: 'pears' }, out('apples lead'))).pass).toBe(false);
  });

  it('charts: type, x and every y column must match; tables: columns and row count from the data file', async () => {
    const chart = { kind: 'chart' as const, type: 'line_chart', x: 'date', y: ['price', 'ma7'] };
    const line = (y: string | string[]) => ({
      id: 'c',
      type: 'line_chart',
      dataFile: 'c.csv',
      config: { xColumn: 'date', yColumn: y },
    });
    expect((await scoreAnalysis(chart, out('', [line(['price', 'ma7'])]))).pass).toBe(true);
    expect((await scoreAnalysis(chart, out('', [line('price')]))).pass).toBe(false);
    expect((await scoreAnalysis(chart, out('', [{ ...line(['price', 'ma7']), type: 'bar_chart' }]))).pass).toBe(false);
    writeFileSync(path.join(ws, 't.csv'), 'month,amount\n2024-01,5\n2024-02,6\n');
    const table = (rows: number) => ({ kind: 'table' as const, columns: ['month', 'amount'], rows });
    const viz = [{ id: 't', type: 'table', dataFile: 't.csv' }];
    expect((await scoreAnalysis(table(2), out('', viz))).pass).toBe(true);
    expect((await scoreAnalysis(table(3), out('', viz))).pass).toBe(false);
  });

  it('numbers: every value must be stated (a total per group), not only some of them', async () => {
    const totals = { kind: 'numbers' as const, values: [647, 407, 409, 525], tolerance: 0.01 };
    expect((await scoreAnalysis(totals, out('east 647, north 407, south 409, west 525'))).pass).toBe(true);
    // The failure: row counts, or the right table retyped as a series.
    expect((await scoreAnalysis(totals, out('east 9, north 9, south 9, west 9'))).pass).toBe(false);
    expect((await scoreAnalysis(totals, out('1000, 2000, 3000, 4000, 647'))).pass).toBe(false);
  });

  it('a chart with known values must show them in the columns it plots: sums pass whatever their name, counts fail', async () => {
    const bar = {
      kind: 'chart' as const,
      type: 'bar_chart',
      x: 'region',
      y: ['amount'],
      values: { east: 647, west: 525 },
    };
    const chart = (file: string, y = 'total_amount', type = 'bar_chart') => ({
      id: file,
      type,
      dataFile: file,
      config: { xColumn: 'region', yColumn: y },
    });
    writeFileSync(path.join(ws, 'sums.csv'), 'region,total_amount\neast,647\nwest,525\n');
    writeFileSync(path.join(ws, 'counts.csv'), 'region,count\neast,9\nwest,9\n');
    writeFileSync(path.join(ws, 'rows.csv'), 'region,amount\neast,600\neast,47\nwest,525\n');
    expect((await scoreAnalysis(bar, out('', [chart('sums.csv')]))).pass).toBe(true);
    expect((await scoreAnalysis(bar, out('', [chart('counts.csv', 'count')]))).pass).toBe(false);
    expect((await scoreAnalysis(bar, out('', [chart('rows.csv', 'amount')]))).pass).toBe(false);
    expect((await scoreAnalysis(bar, out('', [chart('sums.csv', 'total_amount', 'line_chart')]))).pass).toBe(false);
    // The right numbers in a column the chart does not plot do not count.
    expect((await scoreAnalysis(bar, out('', [chart('sums.csv', 'other')]))).pass).toBe(false);
  });

  it('a pie with known values is compared as shares: units or percentages pass, another measure fails', async () => {
    const pie = {
      kind: 'chart' as const,
      type: 'pie_chart',
      x: 'product',
      y: ['units'],
      values: { a: 30, b: 10 },
      proportional: true,
    };
    const slice = (file: string) => ({
      id: file,
      type: 'pie_chart',
      dataFile: file,
      config: { labelColumn: 'product', valueColumn: 'v' },
    });
    writeFileSync(path.join(ws, 'pie-units.csv'), 'product,v\na,30\nb,10\n');
    writeFileSync(path.join(ws, 'pie-pct.csv'), 'product,v\na,75.0\nb,25.0\n');
    writeFileSync(path.join(ws, 'pie-even.csv'), 'product,v\na,5\nb,5\n');
    expect((await scoreAnalysis(pie, out('', [slice('pie-units.csv')]))).pass).toBe(true);
    expect((await scoreAnalysis(pie, out('', [slice('pie-pct.csv')]))).pass).toBe(true);
    expect((await scoreAnalysis(pie, out('', [slice('pie-even.csv')]))).pass).toBe(false);
  });

  it('a table with known values: one row per label with its value, in any columns; wrong sums or extra rows fail', async () => {
    const table = {
      kind: 'table' as const,
      columns: ['month', 'amount'],
      rows: 2,
      values: { '2024-01': 527, '2024-02': 833 },
    };
    const viz = (file: string) => [{ id: file, type: 'table', dataFile: file }];
    writeFileSync(path.join(ws, 'm-right.csv'), 'month,total_amount\n2024-01,527\n2024-02,833\n');
    writeFileSync(path.join(ws, 'm-wrong.csv'), 'month,amount\n2024-01,12\n2024-02,12\n');
    writeFileSync(path.join(ws, 'm-extra.csv'), 'month,amount\n2024-01,527\n2024-02,833\ntotal,1360\n');
    expect((await scoreAnalysis(table, out('', viz('m-right.csv')))).pass).toBe(true);
    expect((await scoreAnalysis(table, out('', viz('m-wrong.csv')))).pass).toBe(false);
    expect((await scoreAnalysis(table, out('', viz('m-extra.csv')))).pass).toBe(false);
    expect((await scoreAnalysis(table, out('', viz('missing.csv')))).pass).toBe(false);
  });

  it('the bundled answers know the values of the aggregated chart and table requests and the totals per region', async () => {
    const { answers } = await loadAnalysisSuite(SUITE);
    for (const id of ['a10', 'a13', 'a14']) expect(answers[id]).toHaveProperty('values');
    expect(answers.a21).toMatchObject({ kind: 'numbers' });
  });
});
