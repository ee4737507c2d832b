/**
 * checked_vote on SpreadsheetBench 2 (through its adapter) and the release's recalculation of a run's dataset files,
 * on generated v2 tasks (test/spreadsheetbench2/fixtures/make_v2_tasks.py):
 * - the recalculated copies alone (real LibreOffice): every task's input and answer made in an empty cache, then found
 *   by a new cache object over the same folder (as another run or worker process finds them), per workbook;
 * - two runs of checked_vote on four tasks (an instant scripted model answering a correct solve(wb), the real bwrap
 *   sandbox and LibreOffice, an in-process worker, concurrency 1), the first with an empty cache of recalculated
 *   copies and the second with it warm: wall time, the task's time and each ledger stage's (p50), and how many copies
 *   each run made.
 * Run: node --import tsx bench/sb2-checked-vote.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { runToEnd, startBenchmarkRun, startE2E } from '../test/helpers/e2e';
import { runPython } from '../test/scoring/oracle';
import { loadV2Dataset, RecalculatedCopies, v2TaskResultSchema } from '../benchmarks/spreadsheetbench2';
import ExcelJS from 'exceljs';
import { LibreOfficeRecalculator } from '../lib/recalc/libreoffice';

const SOLVE: Record<string, string> = {
  fm_quoted: "def solve(wb):\n    wb['P&L, 2024']['B2'] = 99.0",
  tpl0: "def solve(wb):\n    ws = wb['Template']\n    ws['B2'] = 91.5\n    ws['B3'] = 'N/A'",
  vis0: "def solve(wb):\n    ws = wb['Data ']\n    ws['D1'] = 'Total'\n    ws['D2'] = 150",
  dbg_plain: "def solve(wb):\n    wb['Sheet1']['B4'] = 7.25",
};

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

async function copiesAlone(dataDir: string, cacheDir: string): Promise<void> {
  const tasks = (await loadV2Dataset(dataDir))!;
  const files = tasks.flatMap((t) =>
    [t.spreadsheet_path, t.golden_response_path].map((p) => path.join(t.categoryDir, p)),
  );
  const lo = LibreOfficeRecalculator.create({ instances: 1 });
  try {
    // The engine's start apart: a workbook with a formula (one without is copied, not opened).
    const warm = path.join(cacheDir, '..', 'warm-up.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').getCell('A1').value = { formula: '1+1', result: 0 };
    await wb.xlsx.writeFile(warm);
    await lo.recalc(warm, warm);
    for (const label of ['empty cache', 'found by a new cache object']) {
      const copies = new RecalculatedCopies(lo, cacheDir);
      const times: number[] = [];
      for (const f of files) {
        const t = performance.now();
        await copies.copyOf(f);
        times.push(performance.now() - t);
      }
      const slow = times.filter((t) => t > 20);
      process.stdout.write(
        `copies, ${label}: ${files.length} workbooks, ${copies.made} made, ${copies.reused} found; p50 ${ms(p50(times))}, ` +
          `max ${ms(Math.max(...times))}, total ${ms(times.reduce((a, b) => a + b, 0))}` +
          (slow.length ? `; ${slow.length} over 20 ms (formulas through the engine): p50 ${ms(p50(slow))}` : '') +
          '\n',
      );
    }
  } finally {
    await lo.close();
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sb2-checked-vote-bench-'));
  process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg');
  try {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
    const data = path.join(tmp, 'data');
    await copiesAlone(data, path.join(tmp, 'copies-cache'));
    const rules = Object.entries(SOLVE).map(([id, code]) => ({
      name: id,
      match: { callKey: new RegExp(`/${id}/cand-\\d/\\d$`) },
      reply: `\`\`\`python\n${code}\n\`\`\``,
    }));
    const env = await startE2E({ rules }, { config: { run: { concurrency: 1 } } });
    try {
      for (const round of ['empty cache', 'warm cache']) {
        const started = Date.now();
        const run = await startBenchmarkRun(env, { dataset: data, agent: 'checked_vote', tasks: Object.keys(SOLVE) });
        await runToEnd(env, run);
        const per: Record<string, number[]> = {};
        let made = 0;
        const accuracy: number[] = [];
        for (const id of Object.keys(SOLVE)) {
          const r = v2TaskResultSchema.parse(
            JSON.parse(readFileSync(path.join(run.runDir, 'results', `${id}.json`), 'utf8')),
          );
          for (const s of r.stages) (per[s.stage] ??= []).push(s.wallMs);
          (per.task ??= []).push(r.wallMs);
          accuracy.push(r.v2?.accuracy ?? 0);
          made += Number(r.v2?.datasetCopies?.input.made ?? 0) + Number(r.v2?.datasetCopies?.answer.made ?? 0);
        }
        process.stdout.write(
          `checked_vote, ${round}: ${((Date.now() - started) / 1000).toFixed(1)} s for ${accuracy.length} tasks ` +
            `(accuracy ${accuracy.join(', ')}; ${made} dataset copies made), p50 per stage: ` +
            Object.entries(per)
              .map(([k, v]) => `${k} ${ms(p50(v))}`)
              .join(', ') +
            ` (load ${loadavg()[0].toFixed(1)})\n`,
        );
      }
    } finally {
      await env.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
