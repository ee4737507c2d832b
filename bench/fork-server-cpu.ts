/**
 * CPU-seconds of one sandboxed execution on the fork server, counted by the kernel (bench/kindCgroups.ts: the fork
 * server and every kernel it forks are in the `sandbox` group whoever reaps them; this process is `worker`), user and
 * system apart, for `copy` (shutil.copy of the input, what the synthetic runs execute) and `pandas` (read the workbook
 * with pandas and openpyxl). The zygote's own start-up is paid before the count starts.
 *
 *   node --import tsx bench/fork-server-cpu.ts [--runs 30]
 */
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSandboxFactory, type SandboxFactory } from '../lib/sandbox';
import { KindCgroups } from './kindCgroups';
import { CODE, INPUT } from './executionSamples';
import { loadAverage } from './processCpu';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '30' } } });
const RUNS = Number(args.runs);

const ms = (s: number) => Math.round((s / RUNS) * 10000) / 10;

async function main(): Promise<void> {
  const groups = KindCgroups.enter();
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-fork-cpu-'));
  chmodSync(root, 0o755); // the sandbox uid must reach the work dirs
  try {
    const factory = await createSandboxFactory({
      backend: 'bwrap',
      executionTimeoutMs: 60_000,
      memoryMiB: 2048,
      maxProcesses: 64,
      dockerImage: 'unused',
      workRoot: root,
      forkServer: true,
    });
    await runOnce(factory, path.join(root, 'zygote-start'), CODE.copy);
    const rows: Record<string, unknown>[] = [];
    for (const [name, code] of Object.entries(CODE)) {
      const load = loadAverage();
      const before = groups.usage();
      const t0 = performance.now();
      for (let i = 0; i < RUNS; i++) await runOnce(factory, path.join(root, `${name}-${i}`), code);
      const wallMs = (performance.now() - t0) / RUNS;
      const after = groups.usage();
      const d = (k: 'worker' | 'sandbox', f: 'user' | 'sys') => after[k][f] - before[k][f];
      rows.push({
        code: name,
        sandboxUserMs: ms(d('sandbox', 'user')),
        sandboxSysMs: ms(d('sandbox', 'sys')),
        workerUserMs: ms(d('worker', 'user')),
        workerSysMs: ms(d('worker', 'sys')),
        totalMs: ms(d('sandbox', 'user') + d('sandbox', 'sys') + d('worker', 'user') + d('worker', 'sys')),
        wallMs: Math.round(wallMs),
        loadAverage: load,
      });
    }
    console.log(`node --import tsx bench/fork-server-cpu.ts --runs ${RUNS} (CPU ms per execution)`);
    console.table(rows);
  } finally {
    rmSync(root, { recursive: true, force: true });
    await groups.leave();
  }
}

async function runOnce(factory: SandboxFactory, workDir: string, code: string): Promise<void> {
  const sandbox = await factory.create({ workDir, warmModules: [] });
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
