/**
 * Sandbox latency per available backend: cold kernel start (until it answers a trivial cell), warm round trip,
 * first pandas import, and a fresh sandboxed process per execution for comparison.
 * Run: node --import tsx bench/sandbox-latency.ts [--runs N] [--closed]
 * --closed: the work dirs in a folder of mode 700 (`mktemp -d`): as root, the bwrap sandbox reaches them passed through
 * a mount namespace of its own (lib/sandbox/passThrough.ts), which this measures.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxFactory, type SandboxFactory } from '../lib/sandbox/index';
import { dockerAvailable } from '../lib/sandbox/docker';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;
const closed = process.argv.includes('--closed');

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `p50 ${pick(0.5).toFixed(2)} ms  p95 ${pick(0.95).toFixed(2)} ms  (n=${samples.length})`;
}

async function time<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function benchBackend(factory: SandboxFactory, root: string): Promise<void> {
  const workDir = (i: number | string) => join(root, `${factory.backend}-${i}`);
  const cold: number[] = [];
  for (let i = 0; i < runs; i++) {
    cold.push(
      await time(async () => {
        const sb = await factory.create({ workDir: workDir(i) });
        await sb.execute('1 + 1');
        await sb.dispose();
      }),
    );
  }
  const sb = await factory.create({ workDir: workDir('warm') });
  const pandas = await time(() => sb.execute('import pandas, openpyxl'));
  for (let i = 0; i < 5; i++) await sb.execute('y = 1 + 1; print(y)');
  const warm: number[] = [];
  for (let i = 0; i < runs * 5; i++) warm.push(await time(() => sb.execute('y = 1 + 1; print(y)')));
  await sb.execute('import pandas as pd; df = pd.DataFrame({"a": range(1000)})');
  const kept: number[] = [];
  for (let i = 0; i < runs * 5; i++) kept.push(await time(() => sb.execute('df["a"].sum()')));
  await sb.dispose();
  console.log(`[${factory.backend}] cold start (create + first trivial cell + dispose): ${stats(cold)}`);
  console.log(`[${factory.backend}] warm round trip print:                        ${stats(warm)}`);
  console.log(`[${factory.backend}] warm round trip df["a"].sum() on kept state:  ${stats(kept)}`);
  console.log(`[${factory.backend}] first import pandas, openpyxl:                ${pandas.toFixed(0)} ms`);
  const fresh: number[] = [];
  for (let i = 0; i < runs; i++) {
    fresh.push(
      await time(async () => {
        const one = await factory.create({ workDir: workDir(`fresh-${i}`) });
        await one.execute('print(1)');
        await one.dispose();
      }),
    );
  }
  const freshPandas: number[] = [];
  for (let i = 0; i < 3; i++) {
    freshPandas.push(
      await time(async () => {
        const one = await factory.create({ workDir: workDir(`freshp-${i}`) });
        await one.execute('import pandas as pd; pd.DataFrame({"a": [1, 2]})["a"].sum()');
        await one.dispose();
      }),
    );
  }
  console.log(`[${factory.backend}] fresh sandbox per execution (print):          ${stats(fresh)}`);
  console.log(`[${factory.backend}] fresh sandbox per execution (pandas + sum):   ${stats(freshPandas)}`);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'sb-bench-'));
  chmodSync(root, closed ? 0o700 : 0o755);
  if (closed) console.log(`work dirs under ${root}, mode 700`);
  const config = {
    executionTimeoutMs: 30_000,
    memoryMiB: 2048,
    maxProcesses: 64,
    dockerImage: 'sheetbench-sandbox:latest',
  };
  const backends: Array<'bwrap' | 'unsafe' | 'docker'> = ['bwrap', 'unsafe'];
  if ((await dockerAvailable()).ok) backends.unshift('docker');
  else console.log('[docker] skipped: no engine answers ping');
  try {
    for (const backend of backends) {
      const factory = await createSandboxFactory({ ...config, backend }, { warmModules: [] });
      await benchBackend(factory, root);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
