/**
 * SpreadsheetBench 2 scoring throughput: our scorer (benchmarks/spreadsheetbench2, `sheetbench eval`) against the
 * official evaluator (the project's Python port of evaluation.py on openpyxl, test/spreadsheetbench2/oracle/
 * v2_eval_port.py), on the same outputs, in CPU seconds (so the figures hold on a loaded machine) and wall time.
 *  - small: the parity set (test/spreadsheetbench2/fixtures/make_v2_tasks.py): 13 tasks in the four categories ×
 *    every output variant (exact, within/beyond 1%, N/A for #DIV/0!, a changed regression cell, font colours, …);
 *  - large: `--tasks N` Financial_Model tasks of `--rows R` rows × 8 columns (the answer position covers the whole
 *    table, the last column is the modification), each scored against the answer's copy and the unchanged input.
 * The Python loop is timed inside Python (as evaluation.py's main loop runs, one process over all tasks), and again
 * with interpreter start and imports. Every accuracy, regression and modification accuracy must be equal.
 * Rounds alternate the two evaluators and the medians are printed.
 * Run: node --import tsx bench/sb2-scoring-throughput.ts [--rounds 3] [--tasks 20] [--rows 2000]
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluateV2Outputs } from '../benchmarks/spreadsheetbench2';
import type { V2Result } from '../benchmarks/spreadsheetbench2';
import { REPO_ROOT } from '../config/paths';
import { percentile } from './recalc-files';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    tasks: { type: 'string', default: '20' },
    rows: { type: 'string', default: '2000' },
  },
});
const ROUNDS = Number(args.rounds);
const PY = path.join(REPO_ROOT, '.tools/sandbox-py/bin/python');
const FIXTURES = path.join(REPO_ROOT, 'test/spreadsheetbench2/fixtures/make_v2_tasks.py');
const PORT_DIR = path.join(REPO_ROOT, 'test/spreadsheetbench2/oracle');

/** One scoring job: a category folder and an outputs folder (evaluation.py's `--dataset` and outputs). */
interface Job {
  categoryDir: string;
  outputs: string;
}

interface Timing {
  cpuS: number;
  wallS: number;
}

function python(argv: string[], input = ''): string {
  const res = spawnSync(PY, argv, { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`python ${argv.slice(0, 2).join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

const LARGE_SCRIPT = `
import json, os, shutil, sys
import openpyxl
out, n, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cat = os.path.join(out, 'data', 'Financial_Model')
records = []
for t in range(n):
    d = os.path.join(cat, 'spreadsheet', f'big{t}')
    os.makedirs(d, exist_ok=True)
    for name, last in (('input', False), ('answer', True)):
        wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Model'
        ws.append(['id', 'a', 'b', 'c', 'd', 'label', 'when', 'total'])
        for r in range(2, rows + 2):
            ws.append([r, r * 1.5, r % 7, (r * 13) % 101 / 3, r / (t + 1), f'row {r}', 40000 + r,
                       (r * 1.5 + r % 7) * (1 + t) if last else None])
        wb.save(os.path.join(d, f'{name}.xlsx'))
    records.append({'id': f'big{t}', 'instruction': 'fill the totals', 'spreadsheet_path': f'spreadsheet/big{t}/input.xlsx',
                    'golden_response_path': f'spreadsheet/big{t}/answer.xlsx', 'answer_position': f'Model!A1:H{rows + 1}'})
    for variant, src in (('exact', 'answer'), ('input', 'input')):
        od = os.path.join(out, 'outputs', variant); os.makedirs(od, exist_ok=True)
        shutil.copy(os.path.join(d, f'{src}.xlsx'), os.path.join(od, f'big{t}_output.xlsx'))
with open(os.path.join(cat, 'dataset.json'), 'w') as fp:
    json.dump(records, fp)
`;

/** The official evaluator's loop over every job in one process: its CPU, the process's CPU, and each result. */
const OFFICIAL_SCRIPT = `
import json, os, resource, sys, time
sys.path.insert(0, ${JSON.stringify(PORT_DIR)})
import v2_eval_port as port
jobs = json.load(sys.stdin)
c0, t0 = time.process_time(), time.perf_counter()
results = []
for job in jobs:
    with open(os.path.join(job['categoryDir'], 'dataset.json')) as fp:
        tasks = json.load(fp)
    cat = os.path.basename(job['categoryDir'].rstrip('/'))
    results.append([port.score(t, job['categoryDir'], job['outputs'], cat)[0] for t in tasks])
c1, t1 = time.process_time(), time.perf_counter()
r = resource.getrusage(resource.RUSAGE_SELF)
json.dump({'loopCpu': c1 - c0, 'loopWall': t1 - t0, 'processCpu': r.ru_utime + r.ru_stime, 'results': results}, sys.stdout)
`;

type Triple = [string | number, number, number, number];
const triples = (scores: V2Result['scores']): Triple[] =>
  scores.map((s) => [s.id, s.accuracy, s.regression_accuracy, s.modification_accuracy]);

function official(jobs: Job[]): { loop: Timing; processCpuS: number; results: Triple[][] } {
  const out = JSON.parse(python(['-c', OFFICIAL_SCRIPT], JSON.stringify(jobs))) as {
    loopCpu: number;
    loopWall: number;
    processCpu: number;
    results: V2Result['scores'][];
  };
  return {
    loop: { cpuS: out.loopCpu, wallS: out.loopWall },
    processCpuS: out.processCpu,
    results: out.results.map(triples),
  };
}

async function ours(jobs: Job[]): Promise<{ timing: Timing; results: Triple[][] }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const results: Triple[][] = [];
  for (const job of jobs) results.push(triples((await evaluateV2Outputs(job.categoryDir, job.outputs))!.result.scores));
  const cpu = process.cpuUsage(c0);
  return { timing: { cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - t0) / 1000 }, results };
}

const median = (xs: number[]) => percentile(xs, 50);

function line(label: string, tasks: number, t: Timing): void {
  console.log(
    `  ${label.padEnd(44)} CPU ${t.cpuS.toFixed(3)} s (${((t.cpuS / tasks) * 1000).toFixed(1)} ms/task, ${(tasks / t.cpuS).toFixed(1)} tasks per CPU-s), wall ${t.wallS.toFixed(2)} s`,
  );
}

async function measure(title: string, jobs: Job[]): Promise<void> {
  const taskCount = (await ours(jobs)).results.flat().length; // warm-up pass (JIT), not timed
  const mine: Timing[] = [];
  const theirs: Timing[] = [];
  const processCpu: number[] = [];
  let mismatches = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const a = await ours(jobs);
    const b = official(jobs);
    mine.push(a.timing);
    theirs.push(b.loop);
    processCpu.push(b.processCpuS);
    mismatches += a.results.flat().filter((t, i) => JSON.stringify(t) !== JSON.stringify(b.results.flat()[i])).length;
  }
  const med = (ts: Timing[]): Timing => ({
    cpuS: median(ts.map((t) => t.cpuS)),
    wallS: median(ts.map((t) => t.wallS)),
  });
  console.log(`${title}: ${taskCount} task scorings per round, ${ROUNDS} rounds (medians)`);
  line('ours (TypeScript, evaluateV2Outputs)', taskCount, med(mine));
  line('official (evaluation.py port, its loop)', taskCount, med(theirs));
  console.log(`  official with interpreter start + imports:   CPU ${median(processCpu).toFixed(3)} s`);
  console.log(`  speed-up (CPU, loop vs loop): ${(med(theirs).cpuS / med(mine).cpuS).toFixed(2)}×`);
  console.log(`  results differing (accuracy, regression, modification per task): ${mismatches}`);
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'sb2-throughput-'));
try {
  const variants = JSON.parse(python([FIXTURES, path.join(tmp, 'small')])) as string[];
  const categories = ['Debugging', 'Financial_Model', 'Template', 'Visualization'];
  await measure(
    'small (parity set)',
    variants.flatMap((v) =>
      categories.map((c) => ({
        categoryDir: path.join(tmp, 'small/data', c),
        outputs: path.join(tmp, 'small/outputs', v),
      })),
    ),
  );
  python(['-c', LARGE_SCRIPT, path.join(tmp, 'large'), args.tasks, args.rows]);
  await measure(
    `large (${args.tasks} tasks × ${args.rows} rows × 8 columns, outputs: answer copy and unchanged input)`,
    ['exact', 'input'].map((v) => ({
      categoryDir: path.join(tmp, 'large/data/Financial_Model'),
      outputs: path.join(tmp, 'large/outputs', v),
    })),
  );
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
} finally {
  await rm(tmp, { recursive: true, force: true });
}
