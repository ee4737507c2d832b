/**
 * CPU-seconds per task counted by the kernel, not by the CLI's reaped process tree (issue 33 §1): a SpreadsheetBench run
 * with an instant scripted model (its own process, left out), recalculation on, in-process workers.
 *
 *   node --import tsx bench/cpu-per-task.ts [--tasks 30] [--concurrency 4] [--recalc libreoffice|none] [--agent single]
 *     [--cold-caches]
 *
 * What is kept per dataset version (the floors, the previews: in the user's cache folder) is read back from earlier
 * runs; `--cold-caches` starts from an empty cache folder (every floor and preview built during the run).
 *
 * dev20 has 20 tasks: more are its first tasks repeated as epochs (e.g. 30 = 15 tasks × 2 epochs; an epoch is a task
 * run again with its own call keys, nothing reused but what the harness caches across runs of a task).
 *
 * Figures (CPU-seconds per task):
 * - `cgroup`: everything this bench started (bench/kindCgroups.ts: one cpuacct group per process kind; the Temporal
 *   server, LibreOffice, sandboxes and whatever they fork, reaped or not), user and system apart, less the model;
 * - `machine`: /proc/stat busy time over the run less the model's group (everyone's load included: read it beside the
 *   load average and the cgroup figure), by mode, and the kernel threads' time (deferred kernel work lands there);
 * - the worker process by thread name (bench/threadCpu.ts: JavaScript main thread, workflow thread, SDK core, libuv
 *   pool, V8 helpers, our worker threads);
 * - history events per task by type (the task workflows' and the run workflow's), and one task's timeline;
 * - forks per task (machine-wide) and processes the run left behind in its groups.
 */
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { devServerConfigSchema } from '../config/schema';
import { taskKey } from '../lib/runStore/taskRecord';
import { runToEnd, startBenchmarkRun, startE2EWith } from '../test/helpers/e2e';
import { DEV20 } from '../test/helpers/datasets';
import { KindCgroups, METERED_KINDS, type MeteredKind, type UserSys } from './kindCgroups';
import { machineDelta, readMachineCpu } from './machineCpu';
import { startModelProcess } from './modelProcess';
import { buildSyntheticDataset } from './syntheticDataset';
import { startProfile } from './cpuProfile';
import { loadAverage } from './processCpu';
import { readThreadCpu, threadDeltaByName } from './threadCpu';
import { eventsByType } from './historyEvents';
import { workflowTimeline } from './harness-histories';

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '4' },
    recalc: { type: 'string', default: 'libreoffice' },
    agent: { type: 'string', default: 'single' },
    'cold-caches': { type: 'boolean', default: false },
    /**
     * N synthetic tasks instead of dev20 (bench/syntheticDataset.ts: dev20 repeated under new ids, at a fixed path in the
     * temp folder), model script copy-input.
     */
    synthetic: { type: 'string' },
    /** The scripted model's latency, ms. */
    latency: { type: 'string', default: '0' },
    /** A V8 CPU profile of the worker's main thread: its time by our code (nearest frame of ours), in the output. */
    profile: { type: 'boolean', default: false },
    /** Temporal dev server dynamic config, JSON (e.g. '{"matching.numTaskqueueReadPartitions": 1}'), to compare. */
    'dynamic-config': { type: 'string', default: '{}' },
  },
});
const DEV20_TASKS = 20;

interface Workload {
  dataset: string;
  limit: number;
  epochs: number;
  script: 'dev20' | 'copy-input';
  label: string;
}

/** dev20 tasks as epochs, or `--synthetic N`: N tasks of their own (dev20 repeated under new ids), one epoch each. */
function plan(tasks: number): Workload {
  if (args.synthetic) {
    const count = Number(args.synthetic);
    // At the same path each time: like dev20's, its previews and floors are kept from earlier runs (unless --cold-caches).
    const stable = path.join(os.tmpdir(), `sb-synthetic-${count}`);
    const synthetic = buildSyntheticDataset(Math.ceil(count / DEV20_TASKS), count, stable);
    return { dataset: synthetic.dir, limit: count, epochs: 1, script: 'copy-input', label: `${count} synthetic tasks` };
  }
  const epochs = Math.ceil(tasks / DEV20_TASKS);
  if (tasks % epochs !== 0) throw new Error(`--tasks ${tasks}: give a multiple of ${epochs} (tasks × epochs)`);
  const limit = tasks / epochs;
  return { dataset: DEV20, limit, epochs, script: 'dev20', label: `${limit} dev20 tasks × ${epochs} epoch(s)` };
}

/** The run's first task (tasks.json order). */
async function firstTaskId(runDir: string): Promise<string> {
  const tasks = JSON.parse(await readFile(path.join(runDir, 'tasks.json'), 'utf8')) as { id: string | number }[];
  return taskKey(tasks[0].id);
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

function diff(a: Record<MeteredKind, UserSys>, b: Record<MeteredKind, UserSys>): Record<MeteredKind, UserSys> {
  return Object.fromEntries(
    METERED_KINDS.map((k) => [k, { user: b[k].user - a[k].user, sys: b[k].sys - a[k].sys }]),
  ) as Record<MeteredKind, UserSys>;
}

async function main(): Promise<void> {
  const tasks = Number(args.tasks);
  const work = plan(tasks);
  // The floors and previews kept per dataset version (user cache folder) are read back unless asked to start empty.
  if (args['cold-caches']) process.env.XDG_CACHE_HOME = mkdtempSync(path.join(os.tmpdir(), 'sb-cold-cache-'));
  const groups = KindCgroups.enter();
  const env = await startE2EWith(await startModelProcess(work.script, Number(args.latency)), {
    config: {
      run: { concurrency: Number(args.concurrency) },
      recalc: { engine: args.recalc === 'none' ? 'none' : 'libreoffice' },
    },
    devServer: {
      tuning: devServerConfigSchema.parse({ dynamicConfig: JSON.parse(args['dynamic-config']) as unknown }),
    },
  });
  try {
    const run = await startBenchmarkRun(env, {
      dataset: work.dataset,
      agent: args.agent,
      limit: work.limit,
      epochs: work.epochs,
    });
    const loadAtStart = loadAverage();
    const cgroupBefore = groups.usage();
    const machineBefore = readMachineCpu();
    const threadsBefore = readThreadCpu();
    const t0 = Date.now();
    const profile = args.profile ? await startProfile(2000) : undefined;
    const final = await runToEnd(env, run);
    const profiled = await profile?.stop(40);
    const wallS = (Date.now() - t0) / 1000;
    const byKind = diff(cgroupBefore, groups.usage());
    const machine = machineDelta(machineBefore, readMachineCpu());
    const threads = threadDeltaByName(threadsBefore, readThreadCpu());
    const left = groups.remaining();
    const model = byKind.model.user + byKind.model.sys;
    const harness = METERED_KINDS.filter((k) => k !== 'model');
    const total = (f: (u: UserSys) => number) => harness.reduce((s, k) => s + f(byKind[k]), 0);
    const per = (v: number) => r3(v / final.done);
    console.log(
      JSON.stringify(
        {
          command: `node --import tsx bench/cpu-per-task.ts ${process.argv.slice(2).join(' ')}`,
          tasks: final.done,
          plan: work.label,
          wallS: r3(wallS),
          loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
          cpuPerTaskS: {
            cgroup: per(total((u) => u.user + u.sys)),
            cgroupUser: per(total((u) => u.user)),
            cgroupSys: per(total((u) => u.sys)),
            machineLessModel: per(machine.busy - model),
          },
          cgroupByKindPerTaskS: Object.fromEntries(
            METERED_KINDS.map((k) => [k, { user: per(byKind[k].user), sys: per(byKind[k].sys) }]),
          ),
          workerThreadsPerTaskS: Object.fromEntries(
            Object.entries(threads)
              .filter(([, t]) => t.user + t.sys > 0)
              .sort((a, b) => b[1].user + b[1].sys - (a[1].user + a[1].sys))
              .map(([name, t]) => [name, { user: per(t.user), sys: per(t.sys) }]),
          ),
          machinePerTaskS: {
            user: per(machine.user + machine.nice),
            system: per(machine.system),
            irq: per(machine.irq),
            softirq: per(machine.softirq),
            steal: per(machine.steal),
            kernelThreads: per(machine.kernelThreads),
            outsideTheRunsGroups: per(machine.busy - total((u) => u.user + u.sys) - model),
          },
          forksPerTask: r3(machine.forks / final.done),
          historyEventsPerTask: await eventsByType(env.client, run.runId, final.done),
          oneTaskTimeline: await workflowTimeline(env.client, `${run.runId}/task/${await firstTaskId(run.runDir)}`),
          childrenStartedByKind: groups.spawnedCounts(),
          leftInGroupsAfterRun: left,
          ...(profiled && {
            workerMainThreadProfile: {
              totalMs: Math.round(profiled.totalMs),
              byOurCode: profiled.byOurCode,
              topFunctions: profiled.top.slice(0, 25),
            },
          }),
        },
        null,
        2,
      ),
    );
  } finally {
    await env.close();
    await groups.leave();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
