/**
 * A 912-task synthetic run: the 20 real dev20 tasks repeated 46 times (workbooks symlinked under new ids in a temp
 * folder), a scripted model with 2 s latency, concurrency 32, real Temporal dev server and bwrap sandbox.
 *
 *   node --import tsx bench/run-912-synthetic.ts [--recalc none|libreoffice] [--repeat 46] [--tasks 912] [--concurrency 32] [--latency 2000]
 *     [--eager true|false] [--pragmas journal_mode=wal,synchronous=normal|none] [--config '{"worker":{...}}']
 *     [--dynamic-config '{"limit.historyCount.suggestContinueAsNew":1000}']
 *
 * Prints wall time vs the latency-bound limit (tasks × latency / concurrency), tasks/s, events per workflow history
 * (every continue-as-new run of the run workflow + a sample of task workflows), worker RSS, and where the time went.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { progressQuery, type RunProgress } from '../contracts/run';
import type { TaskResult } from '../contracts/taskResult';
import { Worker } from '@temporalio/worker';
import { devServerConfigSchema, type DevServerConfig } from '../config/schema';
import type { RequestLogEntry } from '../lib/scriptedLlm';
import { freePort } from '../test/helpers/temporalServer';
import { workflowBundle } from '../workers/workflowBundle';
import { startBenchmarkRun, startE2EWith, startInProcessWorkers, type E2EEnv } from '../test/helpers/e2e';
import {
  executionsOf,
  mapValues,
  percentile,
  round,
  slowWorkflowTasks,
  sumBy,
  workflowTiming,
  type SlowWorkflowTask,
  type WorkflowTiming,
} from './harness-histories';
import { startModelProcess, type ModelProcess } from './modelProcess';
import { buildSyntheticDataset } from './syntheticDataset';
import { harnessCpu, loadAverage, ProcessCpuMeter, type CpuByKind } from './processCpu';
import { serverCounters } from './serverMetrics';

const { values: args } = parseArgs({
  options: {
    recalc: { type: 'string', default: 'none' },
    repeat: { type: 'string', default: '46' },
    tasks: { type: 'string', default: '912' },
    concurrency: { type: 'string', default: '32' },
    latency: { type: 'string', default: '2000' },
    sample: { type: 'string', default: '40' },
    /** Dev server tuning (default: the config's defaults): eager activities on/off, SQLite pragmas `a=b,c=d` or `none`. */
    eager: { type: 'string' },
    pragmas: { type: 'string' },
    /** Dev server dynamic config as JSON, e.g. '{"limit.historyCount.suggestContinueAsNew":1000}' (continue as new sooner). */
    'dynamic-config': { type: 'string', default: '{}' },
    /** JSON merged into the config, e.g. '{"worker":{"maxConcurrentWorkflowTaskPolls":2}}'. */
    config: { type: 'string', default: '{}' },
    /** Write each run-workflow history (JSON) to <prefix>-<runId>.json; every one is replayed at the end either way. */
    'save-history': { type: 'string' },
  },
});
const REPEAT = Number(args.repeat);
/** 20 × 46 = 920 records; the run takes the first 912 (SpreadsheetBench's size). */
const TASKS = Number(args.tasks);
const CONCURRENCY = Number(args.concurrency);
const LATENCY_MS = Number(args.latency);
const RECALC = args.recalc === 'libreoffice' ? 'libreoffice' : 'none';

/** Mean and peak number of LLM requests the scripted server was serving at once (from its log). */
function llmConcurrency(
  log: { time: string; durationMs: number }[],
  fromMs: number,
  toMs: number,
): { mean: number; peak: number } {
  const edges: [number, number][] = [];
  let busyMs = 0;
  for (const e of log) {
    const start = Date.parse(e.time);
    edges.push([start, 1], [start + e.durationMs, -1]);
    busyMs += e.durationMs;
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return { mean: busyMs / Math.max(1, toMs - fromMs), peak };
}

interface Sample {
  t: number;
  rss: number;
  done: number;
  running: number;
  cpu: number;
}

function sampleOf<T>(items: T[], n: number): T[] {
  const step = Math.max(1, Math.floor(items.length / n));
  return items.filter((_, i) => i % step === 0).slice(0, n);
}

async function main(): Promise<void> {
  const dataset = buildSyntheticDataset(REPEAT, TASKS);
  console.log(
    `synthetic dataset: ${dataset.count} tasks in ${dataset.dir} (recalc: ${RECALC}, concurrency ${CONCURRENCY}, latency ${LATENCY_MS} ms)`,
  );
  const metricsPort = await freePort();
  const env = await startE2EWith(await startModelProcess('copy-input', LATENCY_MS), {
    config: {
      ...(JSON.parse(args.config) as Record<string, unknown>),
      run: { concurrency: CONCURRENCY },
      recalc: { engine: RECALC },
    },
    devServer: { tuning: devServerTuning(), metricsPort },
  });
  console.log(`dev server: ${JSON.stringify(devServerTuning())}; worker: ${JSON.stringify(env.config.worker)}`);
  const workers = await startInProcessWorkers(env);
  const running = workers.run();
  const samples: Sample[] = [];
  try {
    const run = await startBenchmarkRun(env, { dataset: dataset.dir });
    const t0 = Date.now();
    const loadAtStart = loadAverage();
    const meter = new ProcessCpuMeter(env.temporal.server.pid, env.llm.pid);
    meter.start();
    let cpu0 = process.cpuUsage();
    let last = t0;
    const sampler = setInterval(() => {
      const now = Date.now();
      const cpu = process.cpuUsage(cpu0);
      cpu0 = process.cpuUsage();
      const cpuPct = ((cpu.user + cpu.system) / 1000 / Math.max(1, now - last)) * 100;
      last = now;
      run.handle
        .query(progressQuery)
        .then((p) => {
          samples.push({ t: now - t0, rss: process.memoryUsage().rss, done: p.done, running: p.running, cpu: cpuPct });
          if (samples.length % 10 === 0)
            console.log(
              `  t=${((now - t0) / 1000).toFixed(0)}s done=${p.done}/${p.total} running=${p.running} rss=${mb(process.memoryUsage().rss)} MB bench-process CPU=${cpuPct.toFixed(0)}% load=${os.loadavg()[0].toFixed(1)}`,
            );
        })
        .catch(() => undefined);
    }, 1_000);
    const result = run.handle.result() as Promise<RunProgress>;
    result.catch(() => undefined); // still pending after a hang when the connection closes
    const final: RunProgress & Partial<Hung> = await Promise.race([result, watchForHang(env, run)]);
    // After a hang, the wall time is up to the last task counted, not the detection delay.
    const wallMs = (final.lastProgressAtMs ?? Date.now()) - t0;
    clearInterval(sampler);
    const cpu = meter.stop();
    await report(env, run, final, wallMs, t0, samples, dataset.count, cpu, loadAtStart, metricsPort);
    await replayCheck(env, run.runId);
    // A hung run would keep its result long-poll retrying on the closed connection: end it first.
    if (final.hung) await run.handle.terminate('bench: run hung (lost taskDone signals)');
    await result.catch(() => undefined);
  } finally {
    await workers.shutdown();
    await running;
    await env.close();
  }
}

type Env = E2EEnv<ModelProcess>;

/** Replays every execution of the run workflow on the current code, as a worker that lost its cache would. */
async function replayCheck(env: Env, runWorkflowId: string): Promise<void> {
  for (const runId of await executionsOf(env.client, runWorkflowId)) {
    const history = await env.client.workflow.getHandle(runWorkflowId, runId).fetchHistory();
    if (args['save-history']) writeFileSync(`${args['save-history']}-${runId}.json`, JSON.stringify(history));
    const error = await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history).then(
      () => undefined,
      (err: unknown) => String(err),
    );
    console.log(`replay of run workflow execution ${runId} (${history.events?.length} events): ${error ?? 'ok'}`);
  }
}

function devServerTuning(): DevServerConfig {
  const defaults = devServerConfigSchema.parse({});
  const pragmas =
    args.pragmas === 'none'
      ? {}
      : args.pragmas
        ? Object.fromEntries(args.pragmas.split(',').map((p) => p.split('=')))
        : defaults.sqlitePragmas;
  return devServerConfigSchema.parse({
    eagerActivities: args.eager ? args.eager === 'true' : defaults.eagerActivities,
    sqlitePragmas: pragmas,
    dynamicConfig: JSON.parse(args['dynamic-config']),
  });
}

const HANG_AFTER_MS = 90_000;

interface Hung {
  hung: true;
  lastProgressAtMs: number;
}

/**
 * Resolves with the run's progress if it stops moving while it still counts tasks in flight and no task workflow of
 * the run is running: those tasks finished but the run never counted them, so it would wait forever.
 */
async function watchForHang(env: Env, run: Awaited<ReturnType<typeof startBenchmarkRun>>): Promise<RunProgress & Hung> {
  let lastDone = -1;
  let since = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 5_000));
    const p = await run.handle.query(progressQuery).catch(() => undefined);
    if (!p) continue;
    if (p.done !== lastDone) [lastDone, since] = [p.done, Date.now()];
    if (Date.now() - since < HANG_AFTER_MS || p.running === 0) continue;
    const { count } = await env.client.workflow.count(
      `BenchRunId="${run.runId}" AND WorkflowType="spreadsheetTask" AND ExecutionStatus="Running"`,
    );
    if (count > 0) continue;
    console.log(
      `RUN HUNG: progress says ${p.running} task(s) in flight, but no task workflow is running (their taskDone signals were not counted)`,
    );
    return { ...p, hung: true, lastProgressAtMs: since };
  }
}

async function report(
  env: Env,
  run: Awaited<ReturnType<typeof startBenchmarkRun>>,
  final: RunProgress,
  wallMs: number,
  t0: number,
  samples: Sample[],
  tasks: number,
  cpu: CpuByKind,
  loadAtStart: string,
  metricsPort: number,
): Promise<void> {
  const llmLog: RequestLogEntry[] = await env.llm.readLog();
  const answered = llmLog.filter((e) => e.answered).length;
  const limitMs = (tasks * LATENCY_MS) / CONCURRENCY;
  const runExecutions = await executionsOf(env.client, run.runId);
  const runTimings: WorkflowTiming[] = [];
  for (const id of runExecutions) runTimings.push(await workflowTiming(env.client, run.runId, id));
  const taskIds = readdirSync(path.join(run.runDir, 'results')).map((f) => f.replace(/\.json$/, ''));
  const taskTimings: WorkflowTiming[] = [];
  for (const id of sampleOf(taskIds, Number(args.sample)))
    taskTimings.push(await workflowTiming(env.client, `${run.runId}/task/${id}`));
  const results = taskIds.map(
    (id) => JSON.parse(readFileSync(path.join(run.runDir, 'results', `${id}.json`), 'utf8')) as TaskResult,
  );
  const activities = taskTimings.flatMap((t) => t.activities);
  const llm = llmConcurrency(llmLog, t0, t0 + wallMs);
  const rss = samples.map((s) => s.rss);
  const figures = {
    tasks,
    hung: (final as RunProgress & Partial<Hung>).hung ?? false,
    done: final.done,
    failed: final.failed,
    recalc: RECALC,
    concurrency: CONCURRENCY,
    latencyMs: LATENCY_MS,
    llmRequests: llmLog.length,
    llmAnswered: answered,
    wallS: wallMs / 1000,
    latencyBoundLimitS: limitMs / 1000,
    limitOverWall: limitMs / wallMs,
    tasksPerS: final.done / (wallMs / 1000),
    llmInFlight: { mean: round(llm.mean), peak: llm.peak, target: CONCURRENCY },
    runWorkflowExecutions: runTimings.length,
    runHistoryEvents: runTimings.map((t) => t.events),
    meanRunningTasks: round(samples.reduce((a, s) => a + s.running, 0) / Math.max(1, samples.length)),
    runChildStarts: runTimings.map((t) => t.childStarts),
    runWorkflowTaskMs: {
      scheduleToStartMean: round(mean(runTimings.flatMap((t) => t.workflowTasks.scheduleToStartMs))),
      runMean: round(mean(runTimings.flatMap((t) => t.workflowTasks.runMs))),
      runP95: percentile(
        runTimings.flatMap((t) => t.workflowTasks.runMs),
        95,
      ),
    },
    taskHistoryEvents: {
      sampled: taskTimings.length,
      max: Math.max(...taskTimings.map((t) => t.events)),
      p50: percentile(
        taskTimings.map((t) => t.events),
        50,
      ),
    },
    taskWallMs: {
      p50: percentile(
        results.map((r) => r.wallMs),
        50,
      ),
      p95: percentile(
        results.map((r) => r.wallMs),
        95,
      ),
    },
    stageWallMsMean: mapValues(
      sumBy(
        results.flatMap((r) => r.stages),
        (s) => s.stage,
        (s) => s.wallMs,
      ),
      (v) => v / results.length,
    ),
    activityRunMsMean: mapValues(
      sumBy(
        activities,
        (a) => a.type,
        (a) => a.runMs,
      ),
      (v) => v / taskTimings.length,
    ),
    activityScheduleToStartMsMean: mapValues(
      sumBy(
        activities,
        (a) => a.type,
        (a) => a.scheduleToStartMs,
      ),
      (v) => v / taskTimings.length,
    ),
    rssMB: { mean: mb(rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length)), max: mb(Math.max(...rss)) },
    benchProcessCpuPct: {
      mean: round(samples.reduce((a, s) => a + s.cpu, 0) / Math.max(1, samples.length)),
      max: round(Math.max(...samples.map((s) => s.cpu))),
    },
    cores: os.cpus().length,
    ...cpuFigures(cpu, tasks, wallMs, limitMs),
    devServer: devServerTuning(),
    worker: env.config.worker,
    /** Counted by the server: activity tasks handed back eagerly with a workflow task's completion, per task. */
    serverCountersPerTask: mapValues(await serverCounters(metricsPort, /^activity_(eager_execution|success)$/), (v) =>
      round3(v / tasks),
    ),
    loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
    slowWorkflowTasks: await slowTaskCensus(env, run.runId, runExecutions, taskIds),
  };
  console.log(JSON.stringify(figures, null, 2));
  const outDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, `run-912-synthetic-${RECALC}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

const SLOW_WFT_MS = 5_000;
/** Within this of a continue-as-new (the next execution's start) a slow workflow task counts as "around" it. */
const AROUND_CAN_MS = 30_000;

/**
 * Every workflow task of the run (all its executions and all its task workflows) that ran longer than the SDK's
 * TMPRL1104 warning threshold, and how many of them started around a continue-as-new of the run.
 */
async function slowTaskCensus(env: Env, runWorkflowId: string, executions: string[], taskIds: string[]) {
  const slow: Array<SlowWorkflowTask & { kind: 'run' | 'task' }> = [];
  for (const runId of executions)
    slow.push(
      ...(await slowWorkflowTasks(env.client, runWorkflowId, runId, SLOW_WFT_MS)).map((s) => ({
        ...s,
        kind: 'run' as const,
      })),
    );
  // Every task's workflow tasks (threshold 0), to compare the last one of tasks handed over (reportTaskDone) with the others.
  const last: SlowWorkflowTask[] = [];
  for (let i = 0; i < taskIds.length; i += 16) {
    const batch = await Promise.all(
      taskIds.slice(i, i + 16).map((id) => slowWorkflowTasks(env.client, `${runWorkflowId}/task/${id}`, undefined, 0)),
    );
    for (const all of batch) {
      slow.push(...all.filter((s) => s.runMs > SLOW_WFT_MS).map((s) => ({ ...s, kind: 'task' as const })));
      if (all.length) last.push(all[all.length - 1]);
    }
  }
  const lastTask = (handedOver: boolean) => {
    const group = last.filter((t) => t.localActivities.some((a) => a.type === 'reportTaskDone') === handedOver);
    const la = sumBy(
      group.flatMap((t) => t.localActivities),
      (a) => a.type,
      (a) => a.ms,
    );
    return {
      tasks: group.length,
      runMsMean: Math.round(group.reduce((n, t) => n + t.runMs, 0) / Math.max(1, group.length)),
      runMsP95: percentile(
        group.map((t) => t.runMs),
        95,
      ),
      localActivityMsMean: Object.fromEntries(
        Object.entries(la).map(([k, v]) => [k, Math.round(v / Math.max(1, group.length))]),
      ),
    };
  };
  const canTimes: number[] = [];
  for (const runId of executions.slice(1)) {
    const first = (await env.client.workflow.getHandle(runWorkflowId, runId).fetchHistory()).events?.[0];
    canTimes.push(
      first?.eventTime ? Number(first.eventTime.seconds) * 1000 + Math.round((first.eventTime.nanos ?? 0) / 1e6) : 0,
    );
  }
  const around = (t: number) => canTimes.some((c) => Math.abs(t - c) <= AROUND_CAN_MS);
  const outcomes = mapValues(
    sumBy(
      slow,
      (s) => `${s.kind}: ${s.outcome}`,
      () => 1,
    ),
    (v) => v,
  );
  const laMs = sumBy(
    slow.flatMap((s) => s.localActivities),
    (a) => a.type,
    (a) => a.ms,
  );
  const laCount = sumBy(
    slow.flatMap((s) => s.localActivities),
    (a) => a.type,
    () => 1,
  );
  return {
    count: slow.length,
    aroundContinueAsNew: slow.filter((s) => around(s.startedAtMs)).length,
    runMsP50: percentile(
      slow.map((s) => s.runMs),
      50,
    ),
    runMsMax: Math.max(0, ...slow.map((s) => s.runMs)),
    byKind: { run: slow.filter((s) => s.kind === 'run').length, task: slow.filter((s) => s.kind === 'task').length },
    byOutcome: outcomes,
    /** In those workflow tasks: mean ms of each local activity (where the time went). */
    localActivityMsMean: Object.fromEntries(Object.entries(laMs).map(([k, v]) => [k, Math.round(v / laCount[k])])),
    /** Each task's last workflow task (scoring, records; and, for tasks handed over, the summary signalled to the run). */
    lastWorkflowTaskOfTasks: { handedOver: lastTask(true), others: lastTask(false) },
    /** Per continue-as-new: slow tasks that started within ±30 s of it. */
    perContinueAsNew: canTimes.map((c) => slow.filter((s) => Math.abs(s.startedAtMs - c) <= AROUND_CAN_MS).length),
  };
}

/**
 * CPU-seconds per task by process kind, the bound they set on this machine and the ratio projected for 8 cores.
 * `total` is the harness (the model excluded); `totalWithModel` is comparable with figures measured before the model
 * had its own process (it was then inside `worker`).
 */
function cpuFigures(cpu: CpuByKind, tasks: number, wallMs: number, limitMs: number) {
  const total = harnessCpu(cpu);
  const perTask = Object.fromEntries(
    Object.entries({ ...cpu, total, totalWithModel: total + cpu.model }).map(([k, v]) => [k, round3(v / tasks)]),
  );
  const boundOn = (cores: number) => total / cores;
  return {
    /** worker = this process (worker, client); model = the scripted model's process; sandbox = kernels and their children. */
    cpuSecondsPerTask: perTask,
    /** The old figures' split, for comparison with earlier runs (the model counted with the worker, as then). */
    cpuSecondsPerTaskAsBefore: {
      workerAndSandboxes: round3((total + cpu.model - cpu.temporal) / tasks),
      temporalServer: round3(cpu.temporal / tasks),
    },
    cpuBoundLimitS: round(boundOn(os.cpus().length)),
    cpuBusyShareOfMachine: round(total / (os.cpus().length * (wallMs / 1000))),
    projectedLimitOverWall8Cores: round(Math.min(1, limitMs / 1000 / Math.max(limitMs / 1000, boundOn(8)))),
  };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

// Exit explicitly: the worker's warm preview process (and gRPC retry timers) would keep the event loop alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
