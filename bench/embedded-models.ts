/**
 * The embedded models' real results, as a user gets them: `bin/sheetbench run` with `--model <embedded>` (no endpoint,
 * offline, CPU), on dev20 (single and row_react_exec) and on the analysis task suite (per pattern), each run on its own
 * Temporal dev server owned by this script. Prints soft/hard (or passed/scored), failed tasks, wall time and time per task.
 *
 *   node --import tsx bench/embedded-models.ts [--models local-qwen2.5-coder-0.5b,local-qwen2.5-coder-1.5b]
 *     [--dev20 single,row_react_exec] [--dev20-tasks N] [--patterns auto,direct,react,...] [--suite-tasks a01,a02,...]
 *     [--concurrency 2]
 *
 * Slow by nature (a few tokens a second per request on 2 shared cores): restrict with the flags. The results are written
 * to bench/out/embedded-models.json as they come.
 */
import { spawn } from 'node:child_process';
import { chmodSync, createReadStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PATTERNS } from '../contracts/conversation';
import { LOCAL_MODELS } from '../lib/llm/localModels';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
(globalThis as { __dirname?: string }).__dirname ??= path.join(REPO, 'test/helpers');
const { startTestTemporal, TEST_NAMESPACE } = await import('../test/helpers/temporalServer');
const { sharedData } = await import('../test/helpers/sharedData');

const { values: args } = parseArgs({
  options: {
    models: { type: 'string', default: Object.keys(LOCAL_MODELS).join(',') },
    dev20: { type: 'string', default: 'single,row_react_exec' },
    'dev20-tasks': { type: 'string', default: '20' },
    patterns: { type: 'string', default: PATTERNS.join(',') },
    'suite-tasks': { type: 'string' },
    concurrency: { type: 'string', default: '2' },
  },
});
const list = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const DEV20 = sharedData('spreadsheetbench-dev20');
const SUITE = path.join(REPO, 'data/analysis');
const OUT = path.join(REPO, 'bench/out/embedded-models.json');

interface Row {
  model: string;
  dataset: 'dev20' | 'analysis';
  agent: string;
  tasks: number;
  score: string;
  failed: number;
  wallS: number;
  /** Wall time of the run over its tasks (concurrency included), and the mean of each task's own wall time. */
  wallPerTaskS: number;
  meanTaskS: number;
  note?: string;
}

const rows: Row[] = [];
const work = mkdtempSync(path.join(os.tmpdir(), 'sb-embedded-'));
// mkdtemp makes mode 700: the sandbox's uid (65534 under a root worker) must enter it to reach conversation workspaces.
chmodSync(work, 0o755);
const data = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  createReadStream(path.join(SUITE, 'files', path.basename(req.url ?? '')))
    .on('error', () => res.end())
    .pipe(res);
});
await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
const dataUrl = `http://127.0.0.1:${(data.address() as AddressInfo).port}`;
const temporal = await startTestTemporal();

try {
  for (const model of list(args.models)) {
    for (const agent of list(args.dev20)) {
      const ids = (JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as { id: unknown }[])
        .map((r) => String(r.id))
        .slice(0, Number(args['dev20-tasks']));
      record(await runCli(model, 'dev20', agent, ['--dataset', DEV20, '--agent', agent, '--tasks', ids.join(',')]));
    }
    for (const pattern of list(args.patterns)) {
      const tasks = list(args['suite-tasks']);
      record(
        await runCli(model, 'analysis', pattern, [
          '--dataset',
          SUITE,
          '--agent',
          pattern,
          ...(tasks.length ? ['--tasks', tasks.join(',')] : []),
        ]),
      );
    }
  }
} finally {
  await temporal.stop();
  data.close();
}
printTable();

/** One `sheetbench run` as a user types it (its own run folder, the embedded model, this script's Temporal server). */
async function runCli(model: string, dataset: Row['dataset'], agent: string, flags: string[]): Promise<Row> {
  const runDir = path.join(work, `${model}-${dataset}-${agent}`);
  const config = path.join(work, `config-${model}-${dataset}-${agent}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      analysisSuite: { dataUrl },
      analysis: { fetch: { allowPrivateAddresses: true } },
      conversation: { dir: path.join(runDir, '..', `conv-${model}-${agent}`) },
    }),
  );
  const env = {
    ...process.env,
    SHEETBENCH_CONFIG: config,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: TEST_NAMESPACE,
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  };
  const started = Date.now();
  process.stdout.write(`${model} ${dataset} ${agent}: running…\n`);
  const exit = await new Promise<number | null>((resolve) => {
    const child = spawn(
      path.join(REPO, 'bin/sheetbench'),
      ['run', ...flags, '--model', model, '--concurrency', String(args.concurrency), '--out', runDir],
      { cwd: REPO, env, stdio: ['ignore', 'inherit', 'pipe'] },
    );
    let tail = '';
    child.stderr.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-3000)));
    child.on('close', (code) => {
      if (code !== 0) process.stdout.write(`  exit ${code}: ${tail.split('\n').slice(-6).join('\n  ')}\n`);
      resolve(code);
    });
  });
  const wallS = (Date.now() - started) / 1000;
  const results = readResults(runDir);
  const meanTaskS = results.length ? results.reduce((s, r) => s + r.wallMs, 0) / results.length / 1000 : 0;
  const text = readFileSync(path.join(runDir, 'summary.json'), 'utf8');
  const { tasks, score, failed } = dataset === 'dev20' ? sheetScore(text) : suiteScore(text, agent);
  return {
    model,
    dataset,
    agent,
    tasks,
    score,
    failed,
    wallS: Math.round(wallS),
    wallPerTaskS: round1(wallS / Math.max(1, tasks)),
    meanTaskS: round1(meanTaskS),
    ...(exit !== 0 ? { note: `exit ${exit}` } : {}),
  };
}

/** The figures this bench prints from a SpreadsheetBench run's summary.json. */
function sheetScore(text: string): { tasks: number; score: string; failed: number } {
  const s = JSON.parse(text) as { tasks: number; failed: number; overall: { soft: number; hard: number } };
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  return { tasks: s.tasks, score: `soft ${pct(s.overall.soft)} hard ${pct(s.overall.hard)}`, failed: s.failed };
}

/** The figures this bench prints from an analysis-suite run's summary.json (with JIT's choices for `auto`). */
function suiteScore(text: string, agent: string): { tasks: number; score: string; failed: number } {
  const s = JSON.parse(text) as {
    requests: number;
    passed: number;
    scored: number;
    skipped: unknown[];
    failed: unknown[];
    byPattern: Record<string, { scored: number }>;
  };
  const skipped = s.skipped.length ? ` (${s.skipped.length} skipped)` : '';
  const chose = Object.fromEntries(Object.entries(s.byPattern).map(([p, g]) => [p, g.scored]));
  const choice = agent === 'auto' ? ` chose ${JSON.stringify(chose)}` : '';
  return { tasks: s.requests, score: `passed ${s.passed}/${s.scored}${skipped}${choice}`, failed: s.failed.length };
}

function readResults(runDir: string): Array<{ wallMs: number }> {
  const dir = path.join(runDir, 'results');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { wallMs: number });
}

function record(row: Row): void {
  rows.push(row);
  process.stdout.write(`  ${JSON.stringify(row)}\n`);
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    `${JSON.stringify(
      {
        machine: `${os.cpus().length} cores, load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
        concurrency: Number(args.concurrency),
        rows,
      },
      null,
      2,
    )}\n`,
  );
}

function printTable(): void {
  process.stdout.write(
    '\nmodel                      dataset   agent            tasks  score                                      failed  wall s  s/task  mean task s\n',
  );
  for (const r of rows) {
    process.stdout.write(
      `${r.model.padEnd(26)} ${r.dataset.padEnd(9)} ${r.agent.padEnd(16)} ${String(r.tasks).padStart(5)}  ${r.score.padEnd(42)} ${String(r.failed).padStart(6)} ${String(r.wallS).padStart(7)} ${String(r.wallPerTaskS).padStart(7)} ${String(r.meanTaskS).padStart(12)}${r.note ? `  ${r.note}` : ''}\n`,
    );
  }
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
