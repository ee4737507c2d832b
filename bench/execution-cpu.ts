/**
 * CPU-seconds of one sandboxed execution the way `executeSolution` runs it (fresh bwrap sandbox holding one input
 * workbook, one execution, dispose), split into this process and the sandbox processes, for two kinds of code:
 * `copy` (shutil.copy of the input, what the synthetic runs execute) and `pandas` (import pandas and openpyxl, read
 * the workbook). Three ways to get the kernel: a fresh bwrap + Python with the background pre-import of
 * pandas/openpyxl (`warm`, the old default for every sandbox) or without it (`one-shot`), and forked from the fork
 * server (`fork-server`, the default for executions since; the zygote's own start-up is paid once per worker and
 * left out: it is started by a first execution before the meter starts).
 *
 *   node --import tsx bench/execution-cpu.ts [--runs 10]
 */
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSandboxFactory, type SandboxFactory } from '../lib/sandbox';
import { CODE, INPUT } from './executionSamples';
import { loadAverage, ProcessCpuMeter } from './processCpu';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const RUNS = Number(args.runs);

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-exec-cpu-'));
  chmodSync(root, 0o755); // the sandbox uid must reach the work dirs
  const config = {
    backend: 'bwrap',
    executionTimeoutMs: 60_000,
    memoryMiB: 2048,
    maxProcesses: 64,
    dockerImage: 'unused',
    workRoot: root,
  } as const;
  const fresh = await createSandboxFactory({ ...config, forkServer: false });
  const forked = await createSandboxFactory({ ...config, forkServer: true });
  await runOnce(forked, path.join(root, 'zygote-start'), CODE.copy, []);
  const modes = [
    ['warm', fresh, undefined],
    ['one-shot', fresh, []],
    ['fork-server', forked, []],
  ] as const;
  const rows: Record<string, unknown>[] = [];
  for (const [codeName, code] of Object.entries(CODE)) {
    for (const [mode, factory, warmModules] of modes) {
      const load = loadAverage();
      const meter = new ProcessCpuMeter(-1);
      meter.start();
      const t0 = performance.now();
      for (let i = 0; i < RUNS; i++)
        await runOnce(factory, path.join(root, `${codeName}-${mode}-${i}`), code, warmModules);
      const wallMs = (performance.now() - t0) / RUNS;
      const cpu = meter.stop();
      rows.push({
        code: codeName,
        mode,
        cpuMsPerExecution: Math.round(((cpu.worker + cpu.sandbox + cpu.other) / RUNS) * 1000),
        sandboxCpuMs: Math.round((cpu.sandbox / RUNS) * 1000),
        workerCpuMs: Math.round((cpu.worker / RUNS) * 1000),
        forkServerCpuMs: Math.round((cpu.other / RUNS) * 1000),
        wallMs: Math.round(wallMs),
        loadAverage: load,
      });
    }
  }
  console.table(rows);
  rmSync(root, { recursive: true, force: true });
}

async function runOnce(
  factory: SandboxFactory,
  workDir: string,
  code: string,
  warmModules: readonly string[] | undefined,
): Promise<void> {
  const sandbox = await factory.create({
    workDir,
    warmModules: warmModules === undefined ? undefined : [...warmModules],
  });
  await sandbox.writeFile('in.xlsx', '');
  copyFileSync(INPUT, path.join(workDir, 'in.xlsx'));
  const result = await sandbox.execute(code);
  if (result.error) throw new Error(`${path.basename(workDir)}: ${result.error}`);
  await sandbox.dispose();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
