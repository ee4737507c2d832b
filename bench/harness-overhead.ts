/**
 * Harness overhead per task with an instant scripted model: time in orchestration (Temporal scheduling, workflow
 * tasks, signals) vs time in the work itself (execute + recalc + score), measured from each task workflow's history.
 *
 *   node --import tsx bench/harness-overhead.ts [--concurrency 1] [--recalc libreoffice|none] [--timeline]
 *
 * --timeline also prints the history of the task with the median orchestration time, event by event.
 *
 * Per task: wall = first → last history event; activity time = Σ start → close of its activities (they run one after
 * another inside a task) and Σ runtime of its local activities (bookkeeping that runs inside a workflow task, read
 * from their markers); orchestration = wall − activity time (schedule → start waits + workflow-task round trips).
 * `orchestrationInclLocalActivities` books the local activities as orchestration instead.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runToEnd, startBenchmarkRun, startE2EWith } from '../test/helpers/e2e';
import { DEV20 } from '../test/helpers/datasets';
import {
  mapValues,
  percentile,
  round,
  sumBy,
  workflowTimeline,
  workflowTiming,
  type ActivityTiming,
  type WorkflowTiming,
} from './harness-histories';
import { startModelProcess } from './modelProcess';
import { harnessCpu, loadAverage, ProcessCpuMeter } from './processCpu';

const { values: args } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1' },
    recalc: { type: 'string', default: 'libreoffice' },
    timeline: { type: 'boolean', default: false },
  },
});
const RECALC = args.recalc === 'none' ? 'none' : 'libreoffice';
/** The work a harness exists to run; everything else an activity does is bookkeeping. */
const WORK = new Set(['executeSolution', 'executeOnTestCases', 'recalcWorkbook', 'recalcWorkbooks', 'scoreTask']);
/** Local activities that are orchestration themselves: the task's done signal to its run, sent from its last workflow task. */
const ORCHESTRATION = new Set(['reportTaskDone']);

interface TaskOverhead {
  taskId: string;
  wallMs: number;
  workMs: number;
  otherActivityMs: number;
  localActivityMs: number;
  orchestrationMs: number;
  scheduleToStartMs: number;
  /** Where the orchestration time goes (its parts add up to orchestrationMs). */
  parts: OrchestrationParts;
}

interface OrchestrationParts {
  /** Start → first workflow task scheduled (a child's start is recorded in its parent first). */
  childStart: number;
  /** Workflow tasks waiting for the worker: schedule → start. */
  workflowTaskWait: number;
  /** The worker's turns: workflow-task start → completion, less the local activities that ran inside them. */
  workflowTaskRun: number;
  /** Activities waiting for a worker: schedule → start (0 when dispatched eagerly). */
  activityDispatch: number;
  /** The done signal to the run: a local activity (v6), or the signal command's round trip; 0 when the run reads the task's completion (v7). */
  reportToRun: number;
  /** The rest: between an event and the next one the server writes (e.g. an activity's close → the next workflow task). */
  other: number;
}

function overheadOf(taskId: string, t: WorkflowTiming): TaskOverhead {
  const total = (list: ActivityTiming[]) => list.reduce((s, a) => s + a.runMs, 0);
  const isWork = (a: ActivityTiming) => WORK.has(a.type);
  // Scoring is work whether it ran as an activity or as a local one (patched 'local-scoring').
  const workMs = total(t.activities.filter(isWork)) + total(t.localActivities.filter(isWork));
  const localActivities = t.localActivities.filter((a) => !ORCHESTRATION.has(a.type));
  const activityMs = total(t.activities) + total(localActivities);
  const orchestrationMs = t.wallMs - activityMs;
  const scheduleToStartMs = t.activities.reduce((s, a) => s + a.scheduleToStartMs, 0);
  const known = {
    childStart: t.firstWorkflowTaskDelayMs,
    workflowTaskWait: sumOf(t.workflowTasks.scheduleToStartMs),
    workflowTaskRun: sumOf(t.workflowTasks.runMs) - total(t.localActivities),
    activityDispatch: scheduleToStartMs,
    reportToRun: total(t.localActivities.filter((a) => ORCHESTRATION.has(a.type))) + t.signalRoundTripMs,
  };
  return {
    taskId,
    wallMs: t.wallMs,
    workMs,
    otherActivityMs: total(t.activities.filter((a) => !isWork(a))),
    localActivityMs: total(localActivities.filter((a) => !isWork(a))),
    orchestrationMs,
    scheduleToStartMs,
    parts: { ...known, other: orchestrationMs - sumOf(Object.values(known)) },
  };
}

async function main(): Promise<void> {
  const env = await startE2EWith(await startModelProcess('dev20', 0), {
    config: { run: { concurrency: Number(args.concurrency) }, recalc: { engine: RECALC } },
  });
  try {
    const run = await startBenchmarkRun(env, { dataset: DEV20 });
    const loadAtStart = loadAverage();
    const meter = new ProcessCpuMeter(env.temporal.server.pid, env.llm.pid);
    meter.start();
    const t0 = Date.now();
    const final = await runToEnd(env, run);
    const runWallMs = Date.now() - t0;
    const cpu = meter.stop();
    const taskIds = (await import(path.join(DEV20, 'dataset.json'), { with: { type: 'json' } })).default.map(
      (r: { id: unknown }) => String(r.id),
    ) as string[];
    const timings = await Promise.all(taskIds.map((id) => workflowTiming(env.client, `${run.runId}/task/${id}`)));
    const rows = timings.map((t, i) => overheadOf(taskIds[i], t));
    const activities = timings.flatMap((t) => t.activities);
    const sum = (f: (r: TaskOverhead) => number) => rows.reduce((s, r) => s + f(r), 0);
    const n = rows.length;
    const figures = {
      tasks: n,
      done: final.done,
      concurrency: Number(args.concurrency),
      recalc: RECALC,
      runWallS: runWallMs / 1000,
      perTaskMeanMs: {
        wall: Math.round(sum((r) => r.wallMs) / n),
        work_execute_recalc_score: Math.round(sum((r) => r.workMs) / n),
        otherActivities: Math.round(sum((r) => r.otherActivityMs) / n),
        localActivities: Math.round(sum((r) => r.localActivityMs) / n),
        orchestration: Math.round(sum((r) => r.orchestrationMs) / n),
        of_which_scheduleToStart: Math.round(sum((r) => r.scheduleToStartMs) / n),
      },
      orchestrationPartsMeanMs: mapValues(
        sumBy(
          rows.flatMap((r) => Object.entries(r.parts)),
          ([k]) => k,
          ([, v]) => v,
        ),
        (v) => v / n,
      ),
      orchestrationOverWork: ratio(sum((r) => r.orchestrationMs) / sum((r) => r.workMs)),
      orchestrationInclLocalActivitiesOverWork: ratio(
        (sum((r) => r.orchestrationMs) + sum((r) => r.localActivityMs)) / sum((r) => r.workMs),
      ),
      orchestrationPlusBookkeepingOverWork: ratio(
        (sum((r) => r.orchestrationMs) + sum((r) => r.otherActivityMs) + sum((r) => r.localActivityMs)) /
          sum((r) => r.workMs),
      ),
      orchestrationMsP50: percentile(
        rows.map((r) => r.orchestrationMs),
        50,
      ),
      orchestrationMsP95: percentile(
        rows.map((r) => r.orchestrationMs),
        95,
      ),
      activityMeanMsPerTask: mapValues(
        sumBy(
          activities,
          (a) => a.type,
          (a) => a.runMs,
        ),
        (v) => v / n,
      ),
      activityCountPerTask: mapValues(
        sumBy(
          activities,
          (a) => a.type,
          () => 1,
        ),
        (v) => v / n,
      ),
      localActivityMeanMsPerTask: mapValues(
        sumBy(
          timings.flatMap((t) => t.localActivities),
          (a) => a.type,
          (a) => a.runMs,
        ),
        (v) => v / n,
      ),
      /** Start → completion of workflow tasks (the worker's turn, local activities included): a task's first one (the workflow is created), the rest. */
      workflowTaskRunMs: {
        firstP50: percentile(
          timings.map((t) => t.workflowTasks.runMs[0] ?? 0),
          50,
        ),
        firstMax: Math.max(...timings.map((t) => t.workflowTasks.runMs[0] ?? 0)),
        othersP50: percentile(
          timings.flatMap((t) => t.workflowTasks.runMs.slice(1)),
          50,
        ),
        othersMean: round(mean(timings.flatMap((t) => t.workflowTasks.runMs.slice(1)))),
        perTask: round(mean(timings.map((t) => t.workflowTasks.runMs.length))),
      },
      historyEventsPerTask: {
        p50: percentile(
          timings.map((t) => t.events),
          50,
        ),
        max: Math.max(...timings.map((t) => t.events)),
      },
      /** The model answers instantly here, so this is the harness's own cost of one LLM call. */
      llmTurnMsPerCall: round(mean(activities.filter((a) => a.type === 'llmTurn').map((a) => a.runMs))),
      llmTurnMsP50: percentile(
        activities.filter((a) => a.type === 'llmTurn').map((a) => a.runMs),
        50,
      ),
      /** `model` is the scripted model's own process, not harness: `total` leaves it out, `totalWithModel` does not. */
      cpuSecondsPerTask: mapValues(
        { ...cpu, total: harnessCpu(cpu), totalWithModel: harnessCpu(cpu) + cpu.model },
        (v) => v / n,
      ),
      loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
    };
    console.log(JSON.stringify(figures, null, 2));
    if (args.timeline) {
      const median = [...rows].sort((a, b) => a.orchestrationMs - b.orchestrationMs)[Math.floor(n / 2)];
      console.log(`\ntask ${median.taskId} (orchestration ${median.orchestrationMs} ms):`);
      console.log((await workflowTimeline(env.client, `${run.runId}/task/${median.taskId}`)).join('\n'));
    }
    console.log(`orchestration / (execute+recalc+score) = ${figures.orchestrationOverWork}`);
    const outDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'out');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(
      path.join(outDir, `harness-overhead-${RECALC}-c${args.concurrency}.json`),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
  } finally {
    await env.close();
  }
}

/** Ratios to three places: the target (≤ 0.15) sits where two places would round across it. */
const ratio = (v: number) => Math.round(v * 1000) / 1000;
const sumOf = (v: number[]) => v.reduce((a, b) => a + b, 0);
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);

// Exit explicitly: the worker's warm preview process (and gRPC retry timers) would keep the event loop alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
