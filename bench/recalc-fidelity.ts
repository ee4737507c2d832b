/**
 * Recalculation fidelity of the LibreOffice recalculator on the dev20 answer workbooks: each answer is re-saved without
 * cached values (every formula cell's <v> stripped), recalculated, and scored against the original answer with the
 * official rules (benchmarks/spreadsheetbench/scoring/index.ts, mode 'official'). Also scores the stripped copies without recalculation (the floor)
 * and the untouched answers after recalculation (a plain copy).
 * Usage: node --import tsx bench/recalc-fidelity.ts [--dataset DIR]
 */
import { mkdtemp, rm, copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadDataset, OFFICIAL_TEST_CASES, type SheetTask } from '../benchmarks/spreadsheetbench/dataset';
import { taskKey } from '../lib/runStore/taskRecord';
import {
  evaluateTestCase,
  officialScore,
  answerPathFor,
  type TestCaseVerdict,
} from '../benchmarks/spreadsheetbench/scoring/index';
import { LibreOfficeRecalculator } from '../lib/recalc/libreoffice';
import { stripCachedValues, uncachedFormulaCount } from './recalc-strip-cache';
import { DEV20 } from './recalc-files';

const { values: args } = parseArgs({ options: { dataset: { type: 'string', default: DEV20 } } });
const datasetDir = args.dataset;

type Variant = 'stripped, no recalc' | 'stripped + recalc' | 'plain copy + recalc';
const VARIANTS: Variant[] = ['stripped, no recalc', 'stripped + recalc', 'plain copy + recalc'];

const work = await mkdtemp(path.join(os.tmpdir(), 'recalc-fidelity-'));
const recalc = LibreOfficeRecalculator.create();
try {
  const tasks = await loadDataset(datasetDir);
  const verdicts = new Map<Variant, Map<SheetTask, TestCaseVerdict[]>>(VARIANTS.map((v) => [v, new Map()]));
  let stripped = 0;
  /** Test cases whose answer file itself has formulas without cached values: the ground truth there is None. */
  const uncachedAnswers = new Map<string, number>();
  for (const task of tasks) {
    const dir = path.join(work, taskKey(task.id));
    await mkdir(dir, { recursive: true });
    for (const v of VARIANTS) verdicts.get(v)!.set(task, []);
    for (let n = 1; n <= OFFICIAL_TEST_CASES; n++) {
      const answerPath = answerPathFor(datasetDir, task, n);
      const files: Record<Variant, string> = {
        'stripped, no recalc': path.join(dir, `${n}-stripped.xlsx`),
        'stripped + recalc': path.join(dir, `${n}-stripped-recalc.xlsx`),
        'plain copy + recalc': path.join(dir, `${n}-copy-recalc.xlsx`),
      };
      stripped += await stripCachedValues(answerPath, files['stripped, no recalc']);
      const uncached = await uncachedFormulaCount(answerPath);
      if (uncached) uncachedAnswers.set(`${taskKey(task.id)}#${n}`, uncached);
      await copyFile(answerPath, path.join(dir, `${n}-copy.xlsx`));
      const failures = [
        await recalc.recalc(files['stripped, no recalc'], files['stripped + recalc']),
        await recalc.recalc(path.join(dir, `${n}-copy.xlsx`), files['plain copy + recalc']),
      ].filter((r) => !r.ok);
      for (const f of failures) console.log(`recalc failed: task ${task.id} tc${n}: ${f.error}`);
      for (const v of VARIANTS) {
        const verdict = await evaluateTestCase({
          index: n,
          answerPath,
          outputPath: files[v],
          answerPosition: task.answer_position,
          mode: 'official',
        });
        verdicts.get(v)!.get(task)!.push(verdict);
      }
    }
  }
  console.log(
    `${tasks.length} tasks, ${tasks.length * OFFICIAL_TEST_CASES} answer workbooks, ${stripped} cached values stripped`,
  );
  for (const v of VARIANTS) {
    const scores = tasks.map((t) => officialScore(t, verdicts.get(v)!.get(t)!));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const cases = [...verdicts.get(v)!.values()].flat();
    console.log(
      `${v.padEnd(22)} soft ${mean(scores.map((s) => s.soft_restriction)).toFixed(4)}  hard ${mean(scores.map((s) => s.hard_restriction)).toFixed(4)}  test cases ${cases.filter((c) => c.pass).length}/${cases.length}`,
    );
  }
  const cleanCases = [...verdicts.get('stripped + recalc')!].flatMap(([task, list]) =>
    list.filter((c) => !uncachedAnswers.has(`${taskKey(task.id)}#${c.index}`)),
  );
  console.log(
    `stripped + recalc, test cases whose answer file carries every cached value: ${cleanCases.filter((c) => c.pass).length}/${cleanCases.length} pass`,
  );
  console.log(
    `answer files with uncached formulas (data problem): ${[...uncachedAnswers].map(([k, c]) => `${k.replace('#', ' tc')} (${c} cells)`).join(', ') || 'none'}`,
  );
  for (const v of VARIANTS.slice(1)) {
    console.log(`\nfailures (${v}):`);
    for (const [task, list] of verdicts.get(v)!) {
      for (const verdict of list.filter((x) => !x.pass)) {
        const dataProblem = uncachedAnswers.has(`${taskKey(task.id)}#${verdict.index}`)
          ? '  [answer file has uncached formulas]'
          : '';
        console.log(`  ${task.id} tc${verdict.index}: ${verdict.reason}${dataProblem}`);
      }
    }
  }
} finally {
  await recalc.close();
  await rm(work, { recursive: true, force: true });
}
