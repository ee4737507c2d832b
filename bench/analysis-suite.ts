/**
 * Runs the analysis task suite (data/analysis) as the analysis benchmark, once per pattern, with the scripted reference
 * model on a real Temporal server, the real sandbox and a local data server (so the fetch requests run too), and prints
 * per-pattern success, the share of the answers' numbers grounded in their tool outputs, steps, tool calls and tokens
 * from each run's summary.json: the same runner as `sheetbench run --dataset data/analysis --agent <pattern>`.
 * Usage: node --import tsx bench/analysis-suite.ts [pattern,pattern,...] [--concurrency N]
 */
import { createReadStream, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisSummary } from '../benchmarks/analysis/finalize';
import { filesDir, loadAnalysisSuite } from '../benchmarks/analysis/dataset';
import { groundedCell } from '../benchmarks/analysis/summaryLines';
import { createRun, planRun } from '../client/createRun';
import { startRunWorkflow } from '../client/startRun';
import { PATTERNS, type Pattern } from '../contracts/conversation';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = path.join(REPO, 'data/analysis');
(globalThis as { __dirname?: string }).__dirname ??= path.join(REPO, 'test/helpers');
const { startE2E, startInProcessWorkers } = await import('../test/helpers/e2e');
const { referenceAnalyst } = await import('../test/helpers/referenceAnalyst');

const args = process.argv.slice(2);
const concurrency = Number(args[args.indexOf('--concurrency') + 1]) || 4;
const patterns = (args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a))?.split(',') ?? [...PATTERNS]) as Pattern[];

const suite = await loadAnalysisSuite(SUITE);
const data = createServer((req, res) => {
  const name = path.basename(req.url ?? '');
  res.writeHead(200, { 'content-type': 'application/json' });
  createReadStream(path.join(filesDir(suite), name))
    .on('error', () => res.end())
    .pipe(res);
});
await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
const dataUrl = `http://127.0.0.1:${(data.address() as AddressInfo).port}`;

const env = await startE2E(
  { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, dataUrl) },
  {
    config: {
      recalc: { engine: 'none' },
      run: { concurrency },
      analysisSuite: { dataUrl },
      analysis: { fetch: { allowPrivateAddresses: true } },
    },
  },
);
const workers = await startInProcessWorkers(env, { recalc: false });
const running = workers.run();
const started = Date.now();
try {
  const summaries = await Promise.all(patterns.map((pattern) => runPattern(pattern)));
  for (const s of summaries)
    for (const f of s.failed) process.stdout.write(`FAIL ${f.taskId} (${s.pattern}): ${f.reason}\n`);
  process.stdout.write(
    `\n${suite.tasks.length} requests × ${patterns.length} patterns, ${((Date.now() - started) / 1000).toFixed(0)} s, concurrency ${concurrency} per run\n`,
  );
  process.stdout.write('pattern            passed  grounded numbers   steps/req  tools/req  tokens/req\n');
  for (const s of summaries) {
    const t = s.total;
    process.stdout.write(
      `${s.pattern.padEnd(18)} ${`${t.passed}/${t.scored}`.padStart(6)}  ${groundedCell(t).padStart(16)} ${t.steps.toFixed(1).padStart(11)} ${t.toolCalls.toFixed(1).padStart(10)} ${t.tokens.toFixed(0).padStart(11)}\n`,
    );
  }
  const levels = [...new Set(summaries.flatMap((s) => Object.keys(s.byLevel)))].sort();
  const sumOf = (level: string, key: 'passed' | 'scored') =>
    summaries.reduce((n, s) => n + (s.byLevel[level]?.[key] ?? 0), 0);
  process.stdout.write(
    `by level: ${levels.map((l) => `${l} ${sumOf(l, 'passed')}/${sumOf(l, 'scored')}`).join('  ')}\n`,
  );
} finally {
  await workers.shutdown();
  await running;
  await env.close();
  data.close();
}

/** One durable run of the whole suite under one pattern; its summary.json. */
async function runPattern(pattern: Pattern): Promise<AnalysisSummary> {
  const runDir = mkdtempSync(path.join(os.tmpdir(), `sb-suite-${pattern}-`));
  const { manifest } = await createRun(env.config, await planRun({ datasetDir: SUITE, agent: pattern }), {
    runDir,
    runId: `suite-${pattern}-${Date.now().toString(36)}`,
  });
  await (await startRunWorkflow(env.client, env.config, manifest, runDir)).result();
  return JSON.parse(readFileSync(path.join(runDir, 'summary.json'), 'utf8')) as AnalysisSummary;
}
