/**
 * Recalculation time and CPU per workbook: one `soffice --headless --convert-to xlsx` process per file against the
 * persistent soffice driven over UNO (lib/recalc/libreoffice.ts), in two ways: its default (each formula cell's result
 * written into a copy of the input when that is exact, lib/recalc/cached_values.py) and `writeResults: false` (every
 * workbook stored by LibreOffice). The dev20 answer workbooks (copied to a temp folder), interleaved file by file in a
 * rotating order so that load on the machine falls on every way alike.
 *
 * CPU-seconds by the kernel's accounting: a per-file soffice (oosplash and the soffice.bin it reaps) from this process's
 * reaped-children counters; a persistent instance from /proc of its soffice process group and its UNO bridge (both
 * outlive the run), plus this process's own CPU inside its recalc() calls.
 * Usage: node --import tsx bench/recalc-speed.ts [--rounds N] [--only results|store]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { LibreOfficeRecalculator } from '../lib/recalc/libreoffice';
import { isFormulaFree } from '../lib/recalc/formulaFree';
import { dev20Answers, copyInto, percentile } from './recalc-files';
import { pathExists } from '../lib/runStore/files';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '1' }, only: { type: 'string' } },
});
const rounds = Number(args.rounds);
const TICK = 100; // USER_HZ

interface Way {
  name: string;
  /** Recalculates one file into `outDir`: whether the output exists, and whether it was copied (no formula). */
  convert(file: string, outDir: string): Promise<{ ok: boolean; copied: boolean }>;
  /** CPU-seconds this way has used so far (processes it started, and this process inside its calls). */
  cpu(): number;
  times: number[];
  /** Files that went through LibreOffice (not copied for having no formula). */
  engineTimes: number[];
  /** CPU-seconds of the files that went through LibreOffice (for the soffice per file: those with a formula). */
  engineCpu: number;
  failures: number;
  /** Largest resident set of a persistent instance's processes so far (VmHWM), MiB. */
  peakMiB?: () => number;
  close(): Promise<void>;
}

const work = await mkdtemp(path.join(os.tmpdir(), 'recalc-speed-'));
const ways: Way[] = [];
try {
  const files = await copyInto(path.join(work, 'in'), await dev20Answers());
  const formulaFiles = new Set<string>();
  for (const file of files) if (!(await isFormulaFree(file))) formulaFiles.add(file);
  const withFormulas = [...formulaFiles][0];
  ways.push(await perProcessWay(path.join(work, 'per-process'), files[0]));
  if (args.only !== 'store') ways.push(await persistentWay('persistent, results written', true, withFormulas, work));
  if (args.only !== 'results')
    ways.push(await persistentWay('persistent, stored by LibreOffice', false, withFormulas, work));
  const wall = new Map(ways.map((w) => [w, 0]));
  const cpuStart = new Map(ways.map((w) => [w, w.cpu()]));
  for (let r = 0; r < rounds; r++) {
    for (const [i, file] of files.entries()) {
      for (let k = 0; k < ways.length; k++) {
        const way = ways[(i + k) % ways.length];
        const cpuBefore = way.cpu();
        const t = performance.now();
        const { ok, copied } = await way.convert(file, path.join(work, 'out', way.name, String(r)));
        const ms = performance.now() - t;
        way.times.push(ms);
        wall.set(way, wall.get(way)! + ms);
        if (!copied && formulaFiles.has(file)) way.engineCpu += way.cpu() - cpuBefore;
        if (!ok) way.failures++;
      }
    }
  }
  const cpuUsed = new Map(ways.map((w) => [w, w.cpu() - cpuStart.get(w)!]));
  const base = ways[0];
  console.log(
    `${files.length} dev20 answer workbooks × ${rounds} round(s), load average ${os.loadavg()[0].toFixed(1)}`,
  );
  for (const way of ways) {
    const n = way.times.length;
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    console.log(
      `${way.name}: median ${ms(percentile(way.times, 50))}, p95 ${ms(percentile(way.times, 95))}, wall ${(wall.get(way)! / 1000).toFixed(2)} s, CPU ${cpuUsed.get(way)!.toFixed(2)} s (${ms((cpuUsed.get(way)! / n) * 1000)} a file), failures ${way.failures}` +
        (way.engineTimes.length
          ? `; ${way.engineTimes.length} of ${n} through LibreOffice, median ${ms(percentile(way.engineTimes, 50))}`
          : ''),
    );
    if (way.peakMiB) console.log(`  soffice peak resident set ${way.peakMiB().toFixed(0)} MiB`);
    if (way === base) continue;
    const ratio = (p: number) => percentile(base.times, p) / percentile(way.times, p);
    console.log(
      `  speed-up over a soffice per file: median ${ratio(50).toFixed(2)}x, wall ${(wall.get(base)! / wall.get(way)!).toFixed(2)}x, CPU ${(cpuUsed.get(base)! / cpuUsed.get(way)!).toFixed(2)}x; on the ${formulaFiles.size} files with formulas alone: CPU ${ms((way.engineCpu / formulaFiles.size) * 1000)} a file against ${ms((base.engineCpu / formulaFiles.size) * 1000)}, ${(base.engineCpu / way.engineCpu).toFixed(2)}x`,
    );
  }
} finally {
  for (const way of ways) await way.close();
  await rm(work, { recursive: true, force: true });
}

async function perProcessWay(outDir: string, warmUpFile: string): Promise<Way> {
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
  await convert(warmUpFile, path.join(outDir, 'warm-up')); // creates the profile, so every timed run starts warm
  let ownCpu = 0;
  return {
    name: 'one soffice --convert-to per file',
    times: [],
    engineTimes: [],
    engineCpu: 0,
    failures: 0,
    async convert(file, dir) {
      const before = process.cpuUsage();
      await convert(file, dir);
      ownCpu += cpuSeconds(process.cpuUsage(before));
      return { ok: await pathExists(path.join(dir, path.basename(file))), copied: false };
    },
    cpu: () => reapedChildrenCpu() + ownCpu,
    close: async () => undefined,
  };
}

async function persistentWay(name: string, writeResults: boolean, warmUpFile: string, dir: string): Promise<Way> {
  const recalc = LibreOfficeRecalculator.create({ writeResults });
  const bridgesBefore = new Set(bridgeChildren());
  // Warm up on a workbook with formulas: one without is copied and would leave soffice unstarted.
  await recalc.recalc(warmUpFile, path.join(dir, `warm-up-${writeResults}.xlsx`));
  const bridges = bridgeChildren().filter((pid) => !bridgesBefore.has(pid));
  const group = recalc.pool[0].processGroupId!;
  let ownCpu = 0;
  const way: Way = {
    name,
    times: [],
    engineTimes: [],
    engineCpu: 0,
    failures: 0,
    async convert(file, outDir) {
      const before = process.cpuUsage();
      const t = performance.now();
      const res = await recalc.recalc(file, path.join(outDir, path.basename(file)));
      if (!res.copied) way.engineTimes.push(performance.now() - t);
      ownCpu += cpuSeconds(process.cpuUsage(before));
      return { ok: res.ok, copied: res.copied === true };
    },
    cpu: () => groupCpu(group) + bridges.reduce((sum, pid) => sum + processCpu(pid), 0) + ownCpu,
    peakMiB: () =>
      Math.max(
        ...pids()
          .filter((pid) => statOf(pid)?.pgrp === group)
          .map(peakRssMiB),
      ),
    close: () => recalc.close(),
  };
  return way;
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

/** utime, stime, cutime, cstime and pgrp of a process from /proc (fields after "pid (comm) "). */
function statOf(pid: number | 'self'): { own: number; reaped: number; pgrp: number; ppid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(f[1]),
    pgrp: Number(f[2]),
    own: (Number(f[11]) + Number(f[12])) / TICK,
    reaped: (Number(f[13]) + Number(f[14])) / TICK,
  };
}

function processCpu(pid: number): number {
  return statOf(pid)?.own ?? 0;
}

function reapedChildrenCpu(): number {
  return statOf('self')!.reaped;
}

function pids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
}

/** CPU of every live process in a process group (soffice's oosplash and soffice.bin), with what they reaped. */
function groupCpu(pgrp: number): number {
  let sum = 0;
  for (const pid of pids()) {
    const s = statOf(pid);
    if (s?.pgrp === pgrp) sum += s.own + s.reaped;
  }
  return sum;
}

function peakRssMiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** This process's children running the UNO bridge. */
function bridgeChildren(): number[] {
  return pids().filter((pid) => {
    if (statOf(pid)?.ppid !== process.pid) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('lo_bridge.py');
    } catch {
      return false;
    }
  });
}
