/**
 * Scoring throughput (test cases/s) on the dev20 tasks, outputs = answer copies and unmodified inputs (120 test cases):
 *  - this evaluator (lazy OOXML reader, only the answer-position sheets are parsed);
 *  - baseline A: exceljs full workbook load of both files per comparison (values compared with the same rules);
 *  - baseline B: the Python oracle (official rules on openpyxl), one process per test case (first 20 cases).
 * Run: node --import tsx bench/scoring-throughput.ts
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { loadDataset, type SheetTask } from '../benchmarks/spreadsheetbench/dataset';
import {
  answerPathFor,
  diffTestCase,
  evaluateTestCase,
  parseAnswerPosition,
  compareCellValue,
} from '../benchmarks/spreadsheetbench/scoring';
import { cellsOf } from '../benchmarks/spreadsheetbench/scoring/answerPosition';
import { sharedDataPath } from '../config/paths';

const DEV20 = sharedDataPath('spreadsheetbench-dev20');
const PY = path.resolve('.tools/sandbox-py/bin/python');
const ORACLE = path.resolve('test/scoring/oracle/official_eval.py');

interface Case {
  task: SheetTask;
  answer: string;
  output: string;
}

function exceljsValue(v: ExcelJS.CellValue): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object') {
    if (v instanceof Date) return v.getTime() / 86400000 + 25569;
    if ('result' in v) return exceljsValue((v as ExcelJS.CellFormulaValue).result);
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('error' in v) return String(v.error);
    if ('text' in v) return String(v.text);
    return null;
  }
  return v;
}

async function exceljsBaseline(c: Case): Promise<boolean> {
  const [gt, out] = [new ExcelJS.Workbook(), new ExcelJS.Workbook()];
  await gt.xlsx.readFile(c.answer);
  await out.xlsx.readFile(c.output);
  for (const piece of parseAnswerPosition(c.task.answer_position).pieces) {
    const name = piece.sheet ?? gt.worksheets[0]?.name;
    const [a, b] = [gt.getWorksheet(name), out.getWorksheet(name)];
    if (!a || !b || piece.target.kind !== 'cells') return false;
    for (const [r, col] of cellsOf(piece.target)) {
      if (!compareCellValue(exceljsValue(a.getCell(r, col).value), exceljsValue(b.getCell(r, col).value))) return false;
    }
  }
  return true;
}

async function time(label: string, cases: Case[], run: (c: Case) => Promise<unknown>): Promise<void> {
  let errors = 0;
  const start = performance.now();
  for (const c of cases) await run(c).catch(() => errors++);
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label.padEnd(44)} ${cases.length} cases in ${seconds.toFixed(2)} s → ${(cases.length / seconds).toFixed(1)} cases/s${errors ? ` (${errors} threw)` : ''}`,
  );
}

const tasks = await loadDataset(DEV20);
const cases: Case[] = tasks.flatMap((task) =>
  [1, 2, 3].flatMap((n) => {
    const answer = answerPathFor(DEV20, task, n);
    return [
      { task, answer, output: answer },
      { task, answer, output: answer.replace(/_answer\.xlsx$/, '_input.xlsx') },
    ];
  }),
);

await time('evaluator (OOXML reader), warm-up', cases.slice(0, 10), (c) =>
  evaluateTestCase({ answerPath: c.answer, outputPath: c.output, answerPosition: c.task.answer_position }),
);
await time('evaluator (OOXML reader)', cases, (c) =>
  evaluateTestCase({ answerPath: c.answer, outputPath: c.output, answerPosition: c.task.answer_position }),
);
// What a run's scoring does per test case: the verdict with its full cell diff and the answer's fill.
await time('evaluator with cell diffs (diffTestCase)', cases, (c) =>
  diffTestCase({ answerPath: c.answer, outputPath: c.output, answerPosition: c.task.answer_position }),
);
await time('baseline A: exceljs full load per comparison', cases, exceljsBaseline);
await time('baseline B: python oracle, 1 process per case', cases.slice(0, 20), async (c) => {
  const res = spawnSync(PY, [ORACLE, 'score'], {
    input: JSON.stringify([{ answer: c.answer, output: c.output, answer_position: c.task.answer_position }]),
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(res.stderr);
});
