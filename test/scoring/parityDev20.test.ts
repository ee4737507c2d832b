/**
 * Parity bar: on the 20 real dev tasks, for answer copies, input copies and generated perturbations, every TS verdict
 * equals the verdict of the Python oracle (official evaluation rules run on openpyxl 3.1.5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset, type SheetTask } from '../../benchmarks/spreadsheetbench/dataset';
import { taskKey } from '../../lib/runStore/taskRecord';
import { evaluateTestCase, scoreTask, summarize, answerPathFor } from '../../benchmarks/spreadsheetbench/scoring';
import { hasSandboxPython, oracleScore, runPython } from './oracle';
import { sharedData } from '../helpers/sharedData';

const DEV20 = sharedData('spreadsheetbench-dev20');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'scoring-parity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Variant {
  key: string;
  variant: string;
  path: string;
  task: SheetTask;
  tc: number;
}

let tasks: SheetTask[] = [];
let variants: Variant[] = [];

beforeAll(async () => {
  tasks = await loadDataset(DEV20);
  if (!hasSandboxPython) return;
  const cases = tasks.flatMap((task) =>
    [1, 2, 3].map((tc) => ({
      key: `${taskKey(task.id)}_${tc}`,
      answer: answerPathFor(DEV20, task, tc),
      input: answerPathFor(DEV20, task, tc).replace(/_answer\.xlsx$/, '_input.xlsx'),
      answer_position: task.answer_position,
      full: tc === 1,
      task,
      tc,
    })),
  );
  const made = JSON.parse(
    runPython([path.resolve('test/scoring/fixtures/make_variants.py')], JSON.stringify({ out_dir: tmp, cases })),
  ) as { key: string; variant: string; path: string }[];
  const byKey = new Map(cases.map((c) => [c.key, c]));
  variants = made.map((m) => ({ ...m, task: byKey.get(m.key)!.task, tc: byKey.get(m.key)!.tc }));
}, 120_000);

describe.skipIf(!hasSandboxPython)('dev20 parity with the official rules', () => {
  it('every verdict equals the oracle verdict (official mode)', async () => {
    const expected = oracleScore(
      variants.map((v) => ({
        answer: answerPathFor(DEV20, v.task, v.tc),
        output: v.path,
        answer_position: v.task.answer_position,
        instruction_type: v.task.instruction_type,
      })),
    );
    const mismatches: string[] = [];
    const kinds = new Set<string>();
    let failures = 0;
    for (const [i, v] of variants.entries()) {
      const got = await evaluateTestCase({
        answerPath: answerPathFor(DEV20, v.task, v.tc),
        outputPath: v.path,
        answerPosition: v.task.answer_position,
      });
      kinds.add(v.variant);
      if (!got.pass) failures++;
      if (!got.pass) expect(got.reason, `${v.key} ${v.variant}`).toBeTruthy();
      if (got.pass !== expected[i].pass)
        mismatches.push(
          `${v.key} ${v.variant}: ts=${got.pass} (${got.reason}) oracle=${expected[i].pass} (${expected[i].msg})`,
        );
    }
    expect(mismatches).toEqual([]);
    expect(variants.length).toBeGreaterThan(300);
    expect(failures).toBeGreaterThan(100);
    expect(failures).toBeLessThan(variants.length - 60);
    for (const k of [
      'tiny',
      'small',
      'numtext',
      'blank',
      'trailing_space',
      'case',
      'bool',
      'date_plus1',
      'time',
      'renamed_sheet',
      'removed_sheet',
      'missing',
      'formulas_resave',
    ]) {
      expect(kinds.has(k), k).toBe(true);
    }
  }, 120_000);
});

describe('dev20 measured facts (§7)', () => {
  it('output = answer copy scores 1.0 / 1.0 on all 20 tasks', async () => {
    const results = [];
    for (const task of tasks)
      results.push(
        (await scoreTask({ task, datasetDir: DEV20, outputPathFor: (n) => answerPathFor(DEV20, task, n) })).official,
      );
    expect(summarize(results)).toMatchObject({ tasks: 20, soft: 1, hard: 1 });
  });

  it('output = unmodified input passes only CF_8276 [1,1,1] (the §7 (b) passes present in dev20)', async () => {
    const passing: Record<string, number[]> = {};
    for (const task of tasks) {
      const inputFor = (n: number) => answerPathFor(DEV20, task, n).replace(/_answer\.xlsx$/, '_input.xlsx');
      const { official } = await scoreTask({ task, datasetDir: DEV20, outputPathFor: inputFor });
      if (official.test_case_results.some((x) => x === 1)) passing[taskKey(task.id)] = official.test_case_results;
    }
    expect(passing).toEqual({ CF_8276: [1, 1, 1] });
  });
});
