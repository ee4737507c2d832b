/**
 * Where the test suite's CPU goes (issue 33 §6): runs `npx vitest run ARGS` under the kernel's process accounting
 * (`accton`, Debian's `acct` package; root), which records every process at its exit with its user and system time,
 * killed ones included, and prints the CPU-seconds by command, the Node processes split into vitest's own (its main
 * process and the test files' workers) and the processes those start (the CLI, standalone workers), beside the
 * machine-wide busy time over the run.
 *
 *   node --import tsx bench/test-suite-cpu.ts [vitest args…]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machineDelta, readMachineCpu } from './machineCpu';

interface Exited {
  command: string;
  cpu: number;
  pid: number;
  ppid: number;
}

function accountingRecords(file: string): Exited[] {
  const text = execFileSync('dump-acct', [file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return text
    .trim()
    .split('\n')
    .map((line) => line.split('|').map((f) => f.trim()))
    .map((f) => ({ command: f[0], cpu: (Number(f[2]) + Number(f[3])) / 100, pid: Number(f[9]), ppid: Number(f[10]) }));
}

function sum(rows: Exited[]): string {
  return rows.reduce((s, r) => s + r.cpu, 0).toFixed(1);
}

function main(): void {
  if (spawnSync('accton', ['--version']).error) {
    console.error('test-suite-cpu: needs accton and dump-acct (apt-get install acct) and root');
    process.exit(2);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'suite-cpu-'));
  const file = path.join(dir, 'pacct');
  execFileSync('touch', [file]);
  execFileSync('accton', [file]);
  const before = readMachineCpu();
  const started = Date.now();
  const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
  const wall = (Date.now() - started) / 1000;
  const machine = machineDelta(before, readMachineCpu());
  execFileSync('accton', ['off']);
  const rows = accountingRecords(file);
  rmSync(dir, { recursive: true, force: true });

  // npm exec runs vitest through `sh -c`: vitest's main process is the node below npm exec, directly or under sh.
  const npmExec = new Set(rows.filter((r) => /^npm exec/.test(r.command)).map((r) => r.pid));
  const shells = new Set(rows.filter((r) => r.command === 'sh' && npmExec.has(r.ppid)).map((r) => r.pid));
  // The busiest such node (npx may start another, short-lived, beside it).
  const vitestMain = rows
    .filter((r) => r.command === 'node' && (npmExec.has(r.ppid) || shells.has(r.ppid)))
    .sort((a, b) => b.cpu - a.cpu)[0];
  const fileWorkers = rows.filter((r) => r.command === 'node' && r.ppid === vitestMain?.pid);
  const workerPids = new Set(fileWorkers.map((r) => r.pid));
  const started_ = rows.filter((r) => r.command === 'node' && workerPids.has(r.ppid));
  console.log(
    `\nvitest exit ${run.status}; wall ${wall.toFixed(0)} s; machine-wide busy ${machine.busy.toFixed(1)} CPU-s`,
  );
  console.log(`processes recorded: ${rows.length}, ${sum(rows)} CPU-s`);
  console.log(
    `node: vitest main ${vitestMain?.cpu.toFixed(1) ?? '?'}; test-file workers ${fileWorkers.length}, ${sum(fileWorkers)}; node processes they start (CLI, workers) ${started_.length}, ${sum(started_)}`,
  );
  const byCommand = new Map<string, Exited[]>();
  for (const r of rows) byCommand.set(r.command, [...(byCommand.get(r.command) ?? []), r]);
  console.log('CPU-s   processes  command');
  for (const [command, list] of [...byCommand].sort((a, b) => Number(sum(b[1])) - Number(sum(a[1]))).slice(0, 15))
    console.log(`${sum(list).padStart(7)} ${String(list.length).padStart(10)}  ${command}`);
}

main();
