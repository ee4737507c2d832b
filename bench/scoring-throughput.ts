/**
 * Scoring throughput on the dev20 tasks, outputs = answer copies and unmodified inputs (120 test cases), in CPU
 * seconds (so the figures hold on a loaded machine) and wall time:
 *  - this evaluator, the verdict alone and with cell diffs (what a run's scoring does), after a warm-up pass;
 *  - the official evaluator: the Python port of evaluation.py (test/scoring/oracle/official_eval.py, openpyxl) in one
 *    process over all cases, as its main loop runs; its loop timed inside Python, and with interpreter start + import;
 *  - the verdicts of both, case by case (they must be identical);
 *  - the scoring activity's work per task (scoreTask with the floor), the floor computed, then read from the store.
 * Rounds alternate the two evaluators (A B A B …) and the medians are compared.
 * `--baselines` adds the slow ones: exceljs full load per comparison, and one Python process per case (20 cases).
 * Run: node --import tsx bench/scoring-throughput.ts [--rounds N] [--baselines]
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { loadDataset, type SheetTask } from '../benchmarks/spreadsheetbench/dataset';
import {
  answerPathFor,
  diffTestCase,
  evaluateTestCase,
  FloorStore,
  parseAnswerPosition,
  compareCellValue,
  scoreTask,
} from '../benchmarks/spreadsheetbench/scoring';
import { cellsOf } from '../benchmarks/spreadsheetbench/scoring/answerPosition';
import { sharedDataPath } from '../config/paths';
import { percentile } from './recalc-files';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, baselines: { type: 'boolean', default: false } },
});
const ROUNDS = Number(args.rounds);
const DEV20 = sharedDataPath('spreadsheetbench-dev20');
const PY = path.resolve('.tools/sandbox-py/bin/python');
const ORACLE_DIR = path.resolve('test/scoring/oracle');

interface Case {
  task: SheetTask;
  answer: string;
  output: string;
}

interface Timing {
  cpuS: number;
  wallS: number;
}

const median = (xs: number[]) => percentile(xs, 50);

async function timeCases(cases: Case[], run: (c: Case) => Promise<unknown>): Promise<Timing> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const c of cases) await run(c);
  const cpu = process.cpuUsage(c0);
  return { cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - t0) / 1000 };
}

const verdictOf = (c: Case) =>
  evaluateTestCase({ answerPath: c.answer, outputPath: c.output, answerPosition: c.task.answer_position });
const diffOf = (c: Case) =>
  diffTestCase({ answerPath: c.answer, outputPath: c.output, answerPosition: c.task.answer_position });

/** The official main loop in one Python process: CPU of the loop and of the whole process, and each verdict. */
function officialEvaluator(cases: Case[]): { loop: Timing; processCpuS: number; verdicts: boolean[] } {
  const script = [
    'import json, resource, sys, time',
    `sys.path.insert(0, ${JSON.stringify(ORACLE_DIR)})`,
    'import official_eval',
    'jobs = json.load(sys.stdin)',
    'c0, t0 = time.process_time(), time.perf_counter()',
    'out = official_eval.score(jobs)',
    'c1, t1 = time.process_time(), time.perf_counter()',
    'r = resource.getrusage(resource.RUSAGE_SELF)',
    'json.dump({"loopCpu": c1 - c0, "loopWall": t1 - t0, "processCpu": r.ru_utime + r.ru_stime,',
    '           "verdicts": [o["pass"] for o in out]}, sys.stdout)',
  ].join('\n');
  const jobs = cases.map((c) => ({ answer: c.answer, output: c.output, answer_position: c.task.answer_position }));
  const res = spawnSync(PY, ['-c', script], { input: JSON.stringify(jobs), encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`official evaluator failed: ${res.stderr}`);
  const out = JSON.parse(res.stdout) as { loopCpu: number; loopWall: number; processCpu: number; verdicts: boolean[] };
  return { loop: { cpuS: out.loopCpu, wallS: out.loopWall }, processCpuS: out.processCpu, verdicts: out.verdicts };
}

function line(label: string, n: number, t: Timing): void {
  console.log(
    `${label.padEnd(52)} ${n} cases: CPU ${t.cpuS.toFixed(3)} s (${((t.cpuS / n) * 1000).toFixed(2)} ms/case, ${(n / t.cpuS).toFixed(0)} cases per CPU-s), wall ${t.wallS.toFixed(2)} s`,
  );
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

/** CPU per task of the scoring activity's work: diffs of the outputs plus the floor, computed (empty store) or read. */
async function activityWork(tasks: SheetTask[]): Promise<{ computed: number; stored: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scoring-floor-'));
  try {
    const store = new FloorStore(dir);
    const perTask = async () => {
      const c0 = process.cpuUsage();
      for (const task of tasks)
        await scoreTask({
          task,
          datasetDir: DEV20,
          outputPathFor: (n) => answerPathFor(DEV20, task, n),
          withFloor: true,
          floorStore: { store, datasetVersion: 'bench' },
        });
      const cpu = process.cpuUsage(c0);
      return (cpu.user + cpu.system) / 1e3 / tasks.length;
    };
    return { computed: await perTask(), stored: await perTask() };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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

const cold = await timeCases(cases, diffOf);
line('evaluator with cell diffs, first pass (cold JIT)', cases.length, cold);
const ours: Timing[] = [];
const oursVerdictOnly: Timing[] = [];
const official: { loop: Timing; processCpuS: number }[] = [];
let officialVerdicts: boolean[] = [];
for (let r = 0; r < ROUNDS; r++) {
  ours.push(await timeCases(cases, diffOf));
  const o = officialEvaluator(cases);
  official.push(o);
  officialVerdicts = o.verdicts;
  oursVerdictOnly.push(await timeCases(cases, verdictOf));
}
const med = (ts: Timing[]): Timing => ({ cpuS: median(ts.map((t) => t.cpuS)), wallS: median(ts.map((t) => t.wallS)) });
line(`evaluator, verdict only (median of ${ROUNDS})`, cases.length, med(oursVerdictOnly));
line(`evaluator with cell diffs (median of ${ROUNDS})`, cases.length, med(ours));
line(`official evaluator, one process, loop (median of ${ROUNDS})`, cases.length, med(official.map((o) => o.loop)));
const officialProcess = median(official.map((o) => o.processCpuS));
console.log(`official evaluator, whole process (start, import openpyxl, loop): CPU ${officialProcess.toFixed(3)} s`);

const ourVerdicts = await Promise.all(cases.map(async (c) => (await verdictOf(c)).pass));
const same = ourVerdicts.filter((v, i) => v === officialVerdicts[i]).length;
console.log(`verdicts identical to the official evaluator's: ${same}/${cases.length}`);
const ratio = (a: number, b: number) => (a / b).toFixed(2);
console.log(
  `throughput vs the official evaluator, CPU, with cell diffs: ${ratio(med(official.map((o) => o.loop)).cpuS, med(ours).cpuS)}x` +
    ` (loop vs loop, both warm); first pass vs whole process: ${ratio(officialProcess, cold.cpuS)}x`,
);

const activity = await activityWork(tasks);
console.log(
  `scoring activity's work per task (diffs of 3 outputs + floor): floor computed ${activity.computed.toFixed(1)} ms CPU, floor from the store ${activity.stored.toFixed(1)} ms CPU`,
);

if (args.baselines) {
  line('baseline: exceljs full load per comparison', cases.length, await timeCases(cases, exceljsBaseline));
  const perProcess = await timeCases(cases.slice(0, 20), (c) => {
    const res = spawnSync(PY, [path.join(ORACLE_DIR, 'official_eval.py'), 'score'], {
      input: JSON.stringify([{ answer: c.answer, output: c.output, answer_position: c.task.answer_position }]),
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(res.stderr);
    return Promise.resolve();
  });
  console.log(`baseline: python oracle, 1 process per case: 20 cases, wall ${perProcess.wallS.toFixed(2)} s`);
}
