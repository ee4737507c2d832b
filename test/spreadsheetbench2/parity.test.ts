/**
 * Parity bar for SpreadsheetBench 2 scoring: generated v2-layout tasks in all four categories (Debugging with Color and
 * Embedded paths), one outputs folder per variant, scored by our TypeScript scorer and by the project's Python port of
 * evaluation.py on real openpyxl; every accuracy, regression_accuracy and modification_accuracy equal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { evaluateV2Outputs } from '../../benchmarks/spreadsheetbench2/evaluate';
import { V2_CATEGORIES } from '../../benchmarks/spreadsheetbench2/dataset';
import type { V2Result } from '../../benchmarks/spreadsheetbench2/scoring/scoreTask';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-parity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const pick = (r: V2Result) => ({
  totals: [r.total_tests, r.missing_outputs, r.accuracy, r.regression_accuracy, r.modification_accuracy],
  scores: r.scores.map((s) => [s.id, s.accuracy, s.regression_accuracy, s.modification_accuracy]),
});

describe.skipIf(!hasSandboxPython)('SpreadsheetBench 2 parity with evaluation.py (Python port on openpyxl)', () => {
  it('every task of every variant scores the same', async () => {
    const variants = JSON.parse(
      runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], ''),
    ) as string[];
    const port = path.resolve('test/spreadsheetbench2/oracle/v2_eval_port.py');
    const cases = variants.flatMap((variant) =>
      V2_CATEGORIES.map((category) => ({
        variant,
        category,
        dir: path.join(tmp, 'data', category),
        outputs: path.join(tmp, 'outputs', variant),
      })),
    );
    // Every (category, outputs) pair scored by the port in one Python process (an openpyxl import per pair was most
    // of this test's time).
    const expectedAll = JSON.parse(
      runPython([port, '--many'], JSON.stringify(cases.map((c) => [c.dir, c.outputs]))),
    ) as V2Result[];
    expect(expectedAll).toHaveLength(cases.length);
    let compared = 0;
    const accuracies = new Set<number>();
    for (const [i, { variant, category, dir, outputs }] of cases.entries()) {
      const got = (await evaluateV2Outputs(dir, outputs))!.result;
      expect(pick(got), `${variant} ${category}`).toEqual(pick(expectedAll[i]));
      compared += got.scores.length;
      got.scores.forEach((s) => accuracies.add(s.accuracy));
    }
    expect(variants.length).toBeGreaterThanOrEqual(15);
    expect(compared).toBe(variants.length * 13);
    expect([...accuracies].sort()).toEqual([0, 1]);
  }, 300_000);
});
