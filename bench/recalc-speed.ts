/**
 * Recalculation time per workbook: one persistent soffice driven over UNO (lib/recalc/libreoffice.ts) vs one
 * `soffice --headless --convert-to xlsx` process per file, on the dev20 answer workbooks (copied to a temp folder).
 * Usage: node --import tsx bench/recalc-speed.ts [--rounds N] [--instances N]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, access } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { LibreOfficeRecalculator } from '../lib/recalc/libreoffice';
import { isFormulaFree } from '../lib/recalc/formulaFree';
import { dev20Answers, copyInto, percentile } from './recalc-files';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '1' }, instances: { type: 'string', default: '1' } },
});
const rounds = Number(args.rounds);
const instances = Number(args.instances);

const work = await mkdtemp(path.join(os.tmpdir(), 'recalc-speed-'));
try {
  const files = await copyInto(path.join(work, 'in'), await dev20Answers());
  const persistent = await timePersistent(files, path.join(work, 'persistent'));
  const perProcess = await timePerProcess(files, path.join(work, 'per-process'));
  report('persistent soffice over UNO', persistent.times, persistent.wallMs);
  report('one soffice --convert-to per file', perProcess.times, perProcess.wallMs);
  const ratio = (p: number) => percentile(perProcess.times, p) / percentile(persistent.times, p);
  console.log(`first start of the persistent instance (new profile): ${persistent.startMs.toFixed(0)} ms`);
  console.log(
    `speed-up: median ${ratio(50).toFixed(2)}x, p95 ${ratio(95).toFixed(2)}x, wall ${(perProcess.wallMs / persistent.wallMs).toFixed(2)}x`,
  );
  console.log(`failures: persistent ${persistent.failures}, per-process ${perProcess.failures}`);
} finally {
  await rm(work, { recursive: true, force: true });
}

async function timePersistent(files: string[], outDir: string) {
  const recalc = LibreOfficeRecalculator.create({ instances });
  try {
    // Warm up on a workbook with formulas: one without is copied and would leave soffice unstarted.
    const withFormulas = await firstAsync(files, async (f) => !(await isFormulaFree(f)));
    const warm = await recalc.recalc(withFormulas ?? files[0], path.join(outDir, 'warm-up.xlsx'));
    const times: number[] = [];
    let failures = 0;
    const engineTimes: number[] = [];
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) {
      for (const file of files) {
        const t = performance.now();
        const res = await recalc.recalc(file, path.join(outDir, `${r}-${path.basename(file)}`));
        times.push(performance.now() - t);
        if (!res.copied) engineTimes.push(performance.now() - t);
        if (!res.ok) failures++;
      }
    }
    const wallMs = performance.now() - t0;
    console.log(
      `persistent: ${times.length - engineTimes.length} of ${times.length} files have no formula and were copied; the ${engineTimes.length} others through LibreOffice: median ${(percentile(engineTimes, 50) / 1000).toFixed(3)} s`,
    );
    if (instances > 1) {
      const t = performance.now();
      await Promise.all(files.map((file) => recalc.recalc(file, path.join(outDir, `pool-${path.basename(file)}`))));
      console.log(
        `pool of ${instances}: ${files.length} files concurrently in ${((performance.now() - t) / 1000).toFixed(3)} s`,
      );
    }
    return { times, failures, wallMs, startMs: warm.durationMs };
  } finally {
    await recalc.close();
  }
}

async function timePerProcess(files: string[], outDir: string) {
  const profile = pathToFileURL(path.join(outDir, 'profile')).href;
  const convert = (file: string, dir: string) =>
    run('soffice', [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--norestore',
      '--convert-to',
      'xlsx',
      '--outdir',
      dir,
      file,
    ]);
  await convert(files[0], path.join(outDir, 'warm-up')); // creates the profile, so every timed run starts warm
  const times: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const file of files) {
      const dir = path.join(outDir, String(r));
      const t = performance.now();
      await convert(file, dir);
      times.push(performance.now() - t);
      if (
        !(await access(path.join(dir, path.basename(file))).then(
          () => true,
          () => false,
        ))
      )
        failures++;
    }
  }
  return { times, failures, wallMs: performance.now() - t0 };
}

function report(name: string, times: number[], wallMs: number): void {
  const ms = (v: number) => `${(v / 1000).toFixed(3)} s`;
  console.log(
    `${name}: ${times.length} files, median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))}, wall ${ms(wallMs)}`,
  );
}

async function firstAsync<T>(items: T[], test: (item: T) => Promise<boolean>): Promise<T | undefined> {
  for (const item of items) if (await test(item)) return item;
  return undefined;
}
