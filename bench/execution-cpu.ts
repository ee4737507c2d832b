/**
 * CPU-seconds of one sandboxed execution the way `executeSolution` runs it (fresh bwrap sandbox holding one input
 * workbook, one execution, dispose), split into this process and the sandbox processes, for two kinds of code:
 * `copy` (shutil.copy of the input, what the synthetic runs execute) and `pandas` (import pandas and openpyxl, read
 * the workbook). Each with the kernel's background pre-import of pandas/openpyxl on (`warm`, the old default for every
 * sandbox) and off (`one-shot`, what executeSolution now asks for).
 *
 *   node --import tsx bench/execution-cpu.ts [--runs 10]
 */
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSandboxFactory } from '../sandbox';
import { loadAverage, ProcessCpuMeter } from './processCpu';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const RUNS = Number(args.runs);
const INPUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../data/sample/spreadsheet/1002/3_1002_input.xlsx');

const CODE = {
  copy: "import shutil\nshutil.copy('in.xlsx', 'out.xlsx')",
  pandas: "import pandas as pd, openpyxl\ndf = pd.read_excel('in.xlsx')\nwb = openpyxl.load_workbook('in.xlsx')\nprint(df.shape, wb.sheetnames)",
};

async function main(): Promise<void> {
  const factory = await createSandboxFactory({ backend: 'bwrap', executionTimeoutMs: 60_000, memoryMiB: 2048, maxProcesses: 64, dockerImage: 'unused' });
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-exec-cpu-'));
  chmodSync(root, 0o755); // the sandbox uid must reach the work dirs
  const rows: Record<string, unknown>[] = [];
  for (const [codeName, code] of Object.entries(CODE)) {
    for (const [mode, warmModules] of [['warm', undefined], ['one-shot', []]] as const) {
      const load = loadAverage();
      const meter = new ProcessCpuMeter(-1);
      meter.start();
      const t0 = performance.now();
      for (let i = 0; i < RUNS; i++) {
        const workDir = path.join(root, `${codeName}-${mode}-${i}`);
        const sandbox = await factory.create({ workDir, warmModules: warmModules === undefined ? undefined : [...warmModules] });
        await sandbox.writeFile('in.xlsx', '');
        copyFileSync(INPUT, path.join(workDir, 'in.xlsx'));
        const result = await sandbox.execute(code);
        if (result.error) throw new Error(`${codeName}/${mode}: ${result.error}`);
        await sandbox.dispose();
      }
      const wallMs = (performance.now() - t0) / RUNS;
      const cpu = meter.stop();
      rows.push({
        code: codeName,
        mode,
        cpuMsPerExecution: Math.round(((cpu.worker + cpu.sandbox + cpu.other) / RUNS) * 1000),
        sandboxCpuMs: Math.round((cpu.sandbox / RUNS) * 1000),
        workerCpuMs: Math.round((cpu.worker / RUNS) * 1000),
        wallMs: Math.round(wallMs),
        loadAverage: load,
      });
    }
  }
  console.table(rows);
  rmSync(root, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
