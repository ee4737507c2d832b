/**
 * checked_vote against the faithful baselines with an embedded model (issue 32 "Done means"), on dev20: the floor (the
 * unchanged inputs), each agent's soft and hard with 95% intervals (bootstrap over tasks), time per task, and the
 * paired comparison (`compare`: McNemar's exact p on hard outcomes, paired bootstrap of the soft and hard difference) of
 * checked_vote against each baseline, over the tasks both have recorded.
 *
 *   node --import tsx bench/checked-vote.ts [--model local-qwen2.5-coder-0.5b] [--agents single,row_react_exec,checked_vote]
 *     [--tasks 20 | --tasks 39604,79-7] [--concurrency 1] [--parallel] [--root bench/out/checked-vote] [--report-only]
 *
 * Each agent runs as `bin/sheetbench run` (as a user types it) on this script's own Temporal dev server, into
 * `<root>/<model>/<agent>/`. A folder that already holds a finished run is reused, not run again; `--report-only` runs
 * nothing and reports what the folders hold (runs stopped part-way are reported on the tasks they finished, and said
 * to be partial). `--parallel` runs the agents at the same time (each at `--concurrency`). Slow by nature on CPU.
 * The table is also written to `<root>/<model>/report.json`.
 *
 * `--merge-root DIR` (repeatable): the same model and agent run on other tasks in another root (e.g. a second process
 * on a subset, to use a second core): for each agent, tasks this root's run has not recorded are taken from
 * `DIR/<model>/<agent>/` (same dataset and scoring, checked as `compare` pairs runs) and the rows say so.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareRunOutcomes, loadRunOutcomes, type RunOutcomes } from '../benchmarks/report/comparison';
import { pairingProblem } from '../benchmarks/report/comparison/pairing';
import { clusteredMean, type Interval } from '../benchmarks/report/statistics';
import { DEFAULT_LOCAL_MODEL } from '../lib/llm/localModels';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
(globalThis as { __dirname?: string }).__dirname ??= path.join(REPO, 'test/helpers');
const { sharedData } = await import('../test/helpers/sharedData');

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: DEFAULT_LOCAL_MODEL },
    agents: { type: 'string', default: 'single,row_react_exec,checked_vote' },
    tasks: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '1' },
    parallel: { type: 'boolean', default: false },
    root: { type: 'string', default: path.join(REPO, 'bench/out/checked-vote') },
    'report-only': { type: 'boolean', default: false },
    'merge-root': { type: 'string', multiple: true, default: [] },
  },
});
const OURS = 'checked_vote';
/** Per agent, where each merged task's records are: task key -> run folder (this root's own tasks are not listed). */
const mergedFrom = new Map<string, Map<string, string>>();
const DEV20 = sharedData('spreadsheetbench-dev20');
const agents = args.agents
  .split(',')
  .map((a) => a.trim())
  .filter(Boolean);
const modelRoot = path.join(path.resolve(args.root), args.model);
const taskIds = selectTasks(args.tasks);

if (!args['report-only']) {
  const { startTestTemporal, TEST_NAMESPACE } = await import('../test/helpers/temporalServer');
  const temporal = await startTestTemporal();
  try {
    const todo = agents.filter((agent) => !finished(runDir(agent)));
    const runOne = (agent: string) => runCli(agent, { address: temporal.address, namespace: TEST_NAMESPACE });
    if (args.parallel) await Promise.all(todo.map(runOne));
    else for (const agent of todo) await runOne(agent);
  } finally {
    await temporal.stop();
  }
}
await report();

function selectTasks(spec: string): string[] {
  const all = (JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as { id: unknown }[]).map((r) =>
    String(r.id),
  );
  return /^\d+$/.test(spec) ? all.slice(0, Number(spec)) : spec.split(',').map((s) => s.trim());
}

function runDir(agent: string): string {
  return path.join(modelRoot, agent);
}

function finished(dir: string): boolean {
  return existsSync(path.join(dir, 'summary.json'));
}

/** One `sheetbench run` as a user types it: the embedded model, its own run folder, this script's Temporal server. */
async function runCli(agent: string, temporal: { address: string; namespace: string }): Promise<void> {
  const dir = runDir(agent);
  mkdirSync(path.dirname(dir), { recursive: true });
  const started = Date.now();
  process.stdout.write(`${args.model} ${agent}: running ${taskIds.length} task(s)…\n`);
  const flags = ['run', '--dataset', DEV20, '--agent', agent, '--tasks', taskIds.join(','), '--model', args.model];
  flags.push('--concurrency', args.concurrency, '--out', dir);
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  };
  const exit = await new Promise<number | null>((resolve) => {
    const child = spawn(path.join(REPO, 'bin/sheetbench'), flags, {
      cwd: REPO,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let tail = '';
    child.stderr.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-3000)));
    child.on('close', (code) => {
      if (code !== 0) process.stdout.write(`  ${agent} exit ${code}: ${tail.split('\n').slice(-6).join('\n  ')}\n`);
      resolve(code);
    });
  });
  process.stdout.write(`${args.model} ${agent}: exit ${exit}, wall ${Math.round((Date.now() - started) / 1000)} s\n`);
}

interface AgentRow {
  agent: string;
  tasks: number;
  partial: boolean;
  soft: Interval;
  hard: Interval;
  meanTaskS: number;
  llmCalls: number;
  failures: Record<string, number>;
  /** Tasks taken from a --merge-root run. */
  mergedTasks?: string[];
}

async function report(): Promise<void> {
  const runs = new Map<string, RunOutcomes>();
  for (const agent of agents) {
    const dir = runDir(agent);
    const extra = await mergedRuns(agent);
    if (existsSync(path.join(dir, 'run.json'))) runs.set(agent, merge(agent, await loadRunOutcomes(dir), extra));
    else if (extra.length) runs.set(agent, merge(agent, extra[0], extra.slice(1)));
  }
  const rows = [...runs].map(([agent, run]) => agentRow(agent, run));
  const anyRun = [...runs.values()].sort((a, b) => recordedKeys(b).length - recordedKeys(a).length)[0];
  const floor = anyRun
    ? floorOf(anyRun.dir, recordedKeys(anyRun), mergedFrom.get(anyRunAgent(runs, anyRun)))
    : undefined;
  const pairs = pairsWithOurs(runs);
  const out = { model: args.model, tasks: taskIds.length, floor, rows, pairs };
  mkdirSync(modelRoot, { recursive: true });
  writeFileSync(path.join(modelRoot, 'report.json'), `${JSON.stringify(out, null, 2)}\n`);
  print(out);
}

/** The agent's runs in the --merge-root folders. */
async function mergedRuns(agent: string): Promise<RunOutcomes[]> {
  const out: RunOutcomes[] = [];
  for (const root of args['merge-root']) {
    const dir = path.join(path.resolve(root), args.model, agent);
    if (existsSync(path.join(dir, 'run.json'))) out.push(await loadRunOutcomes(dir));
  }
  return out;
}

/** One run's outcomes with the tasks it has not recorded taken from the other runs (first recorded wins). */
function merge(agent: string, main: RunOutcomes, others: RunOutcomes[]): RunOutcomes {
  const from = new Map<string, string>();
  const tasks = main.tasks.map((t) => {
    if (t.attempts.length) return t;
    for (const other of others) {
      const problem = pairingProblem(main, other);
      if (problem) throw new Error(`--merge-root: ${problem}`);
      const found = other.tasks.find((o) => o.key === t.key && o.attempts.length);
      if (found) {
        from.set(t.key, other.dir);
        return found;
      }
    }
    return t;
  });
  // Tasks the main run never planned (a run on a subset, e.g. `--tasks` of one kind) come from the others too.
  const planned = new Set(main.tasks.map((t) => t.key));
  for (const other of others) {
    const problem = pairingProblem(main, other);
    if (problem) throw new Error(`--merge-root: ${problem}`);
    for (const found of other.tasks.filter((o) => !planned.has(o.key) && o.attempts.length)) {
      planned.add(found.key);
      from.set(found.key, other.dir);
      tasks.push(found);
    }
  }
  mergedFrom.set(agent, from);
  const recorded = tasks.reduce((n, t) => n + t.attempts.length, 0);
  return { ...main, tasks, recordedAttempts: recorded };
}

function anyRunAgent(runs: Map<string, RunOutcomes>, run: RunOutcomes): string {
  return [...runs].find(([, r]) => r === run)?.[0] ?? '';
}

function agentRow(agent: string, run: RunOutcomes): AgentRow {
  const metrics = compareRunOutcomes([run]).runs[0];
  const merged = mergedFrom.get(agent) ?? new Map<string, string>();
  const results = [
    ...readResults(run.dir, (key) => !merged.has(key)),
    ...[...merged].flatMap(([key, dir]) => readResults(dir, (k) => k === key)),
  ];
  return {
    agent,
    tasks: metrics.tasks,
    partial: metrics.tasks < taskIds.length,
    soft: metrics.soft,
    hard: metrics.hard,
    meanTaskS: results.length ? results.reduce((s, r) => s + r.wallMs, 0) / results.length / 1000 : 0,
    llmCalls: metrics.llmCalls,
    failures: metrics.failureClasses,
    ...(merged.size ? { mergedTasks: [...merged.keys()] } : {}),
  };
}

function recordedKeys(run: RunOutcomes): string[] {
  return run.tasks.filter((t) => t.attempts.length).map((t) => t.key);
}

/** The floor over these tasks: the share of test cases (and of tasks wholly) the unchanged inputs pass. */
function floorOf(
  dir: string,
  keys: string[],
  merged?: Map<string, string>,
): { tasks: number; soft: Interval; hard: Interval } | undefined {
  const perTask: { soft: number; hard: number }[] = [];
  for (const key of keys) {
    const file = path.join(merged?.get(key) ?? dir, 'tasks', key, 'cell-diffs.json');
    if (!existsSync(file)) continue;
    const cases = (JSON.parse(readFileSync(file, 'utf8')) as { testCases: { inputPasses?: boolean }[] }).testCases;
    const passed = cases.filter((c) => c.inputPasses === true).length;
    perTask.push({
      soft: cases.length ? passed / cases.length : 0,
      hard: cases.length && passed === cases.length ? 1 : 0,
    });
  }
  if (!perTask.length) return undefined;
  return {
    tasks: perTask.length,
    soft: clusteredMean(perTask.map((t) => [t.soft])),
    hard: clusteredMean(perTask.map((t) => [t.hard])),
  };
}

/** checked_vote paired with each baseline (the baseline first, as `compare BASELINE OURS` pairs them). */
function pairsWithOurs(runs: Map<string, RunOutcomes>) {
  const ours = runs.get(OURS);
  if (!ours) return [];
  return [...runs]
    .filter(([agent]) => agent !== OURS)
    .map(([agent, baseline]) => {
      const pair = compareRunOutcomes([baseline, ours]).pairs[0];
      return {
        baseline: agent,
        pairedTasks: pair.tasks,
        hard: {
          bothPass: pair.hard.bothPass,
          baselineOnly: pair.hard.aOnly,
          oursOnly: pair.hard.bOnly,
          mcnemarP: pair.hard.mcnemarP,
        },
        softDiff: pair.softDiff,
        hardDiff: pair.hardDiff,
      };
    });
}

function readResults(dir: string, keep: (key: string) => boolean = () => true): { wallMs: number }[] {
  const results = path.join(dir, 'results');
  if (!existsSync(results)) return [];
  return readdirSync(results)
    .filter((f) => f.endsWith('.json') && keep(f.slice(0, -'.json'.length)))
    .map((f) => JSON.parse(readFileSync(path.join(results, f), 'utf8')) as { wallMs: number });
}

function pct(i: Interval): string {
  return `${(i.mean * 100).toFixed(1)}% [${(i.ci95[0] * 100).toFixed(1)}, ${(i.ci95[1] * 100).toFixed(1)}]`;
}

function print(out: {
  model: string;
  floor?: { tasks: number; soft: Interval; hard: Interval };
  rows: AgentRow[];
  pairs: ReturnType<typeof pairsWithOurs>;
}): void {
  const lines = [`\n${out.model} on dev20 (${taskIds.length} task(s) planned)`];
  lines.push(
    `${'agent'.padEnd(16)} ${'tasks'.padStart(5)}  ${'soft (95% CI)'.padEnd(26)} ${'hard (95% CI)'.padEnd(26)} s/task  calls  failures`,
  );
  if (out.floor)
    lines.push(
      `${'floor (input)'.padEnd(16)} ${String(out.floor.tasks).padStart(5)}  ${pct(out.floor.soft).padEnd(26)} ${pct(out.floor.hard).padEnd(26)}`,
    );
  for (const r of out.rows)
    lines.push(
      `${r.agent.padEnd(16)} ${`${r.tasks}${r.partial ? '*' : ''}`.padStart(5)}  ${pct(r.soft).padEnd(26)} ${pct(r.hard).padEnd(26)} ${r.meanTaskS.toFixed(0).padStart(6)} ${String(r.llmCalls).padStart(6)}  ${JSON.stringify(r.failures)}`,
    );
  if (out.rows.some((r) => r.partial))
    lines.push('* partial: the run recorded fewer tasks than planned (stopped or still running)');
  for (const r of out.rows)
    if (r.mergedTasks?.length)
      lines.push(`${r.agent}: ${r.mergedTasks.length} task(s) from a --merge-root run: ${r.mergedTasks.join(', ')}`);
  for (const p of out.pairs)
    lines.push(
      `${OURS} vs ${p.baseline} on ${p.pairedTasks} paired task(s): hard both ${p.hard.bothPass}, ${p.baseline} only ${p.hard.baselineOnly}, ${OURS} only ${p.hard.oursOnly}, McNemar p = ${p.hard.mcnemarP.toFixed(3)}; soft diff ${pct(p.softDiff)}, hard diff ${pct(p.hardDiff)}`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}
