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
  it('loads the bundled suite: 20 requests over the five levels, each with an answer', async () => {
    const suite = await loadAnalysisSuite(SUITE);
    expect(suite.tasks).toHaveLength(20);
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
});
