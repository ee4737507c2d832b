/**
 * The engine's own floor on this machine: a bare workflow (no project code) that runs `--activities` no-op activities
 * one after another, with the project's worker options and the tests' dev server (eager activities, SQLite WAL).
 * Each activity sleeps `--activity-ms` (default 100, like real work: a poller is back in place by then; an activity
 * that ends within a few ms finds none, and its workflow task waits for the backlog, tens of ms). The defaults give
 * the task workflow's shape: 5 activities, 6 workflow tasks.
 * Prints each workflow task's run time (start → complete), the wait before it, and an activity's time beyond its sleep:
 * `orchestrationMsPerWorkflow` (wall − activity time, as in harness-overhead.ts) is the floor a task workflow's
 * orchestration could reach with no code of its own.
 *
 *   node --import tsx bench/workflow-task-floor.ts [--workflows 20] [--activities 5] [--activity-ms 100]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { configSchema } from '../config/schema';
import { workerOptions } from '../workers/createWorkers';
import { installWorkerRuntime } from '../workers/runtime';
import { startTestTemporal, TEST_NAMESPACE } from '../test/helpers/temporalServer';
import { percentile, round, workflowTiming } from './harness-histories';
import { loadAverage } from './processCpu';

const { values: args } = parseArgs({
  options: {
    workflows: { type: 'string', default: '20' },
    activities: { type: 'string', default: '5' },
    'activity-ms': { type: 'string', default: '100' },
  },
});
const SLEEP_MS = Number(args['activity-ms']);
const WORKFLOWS_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor/workflows.ts');

async function main(): Promise<void> {
  installWorkerRuntime();
  const temporal = await startTestTemporal();
  try {
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporal.address }),
      namespace: TEST_NAMESPACE,
      taskQueue: 'floor',
      workflowsPath: WORKFLOWS_PATH,
      activities: { noop: () => new Promise<number>((resolve) => setTimeout(() => resolve(1), SLEEP_MS)) },
      ...workerOptions(configSchema.parse({}).worker),
    });
    const client = new Client({
      connection: await Connection.connect({ address: temporal.address }),
      namespace: TEST_NAMESPACE,
    });
    const timings = await worker.runUntil(async () => {
      const load = loadAverage();
      const out = [];
      for (let i = 0; i < Number(args.workflows); i++) {
        const workflowId = `floor-${i}`;
        await client.workflow.execute('activityChain', {
          taskQueue: 'floor',
          workflowId,
          args: [Number(args.activities)],
        });
        out.push(await workflowTiming(client, workflowId));
      }
      return { out, load };
    });
    const all = (f: (t: (typeof timings.out)[number]) => number[]) => timings.out.flatMap(f);
    const stats = (v: number[]) => ({
      p50: percentile(v, 50),
      mean: round(v.reduce((a, b) => a + b, 0) / Math.max(1, v.length)),
    });
    console.log(
      JSON.stringify(
        {
          workflows: timings.out.length,
          activitiesPerWorkflow: Number(args.activities),
          wallMsPerWorkflow: stats(timings.out.map((t) => t.wallMs)),
          workflowTaskRunMs: stats(all((t) => t.workflowTasks.runMs)),
          workflowTaskScheduleToStartMs: stats(all((t) => t.workflowTasks.scheduleToStartMs)),
          activitySleepMs: SLEEP_MS,
          activityRunBeyondSleepMs: stats(all((t) => t.activities.map((a) => a.runMs - SLEEP_MS))),
          activityScheduleToStartMs: stats(all((t) => t.activities.map((a) => a.scheduleToStartMs))),
          orchestrationMsPerWorkflow: stats(
            timings.out.map((t) => t.wallMs - t.activities.reduce((s, a) => s + a.runMs, 0)),
          ),
          loadAverage: { atStart: timings.load, atEnd: loadAverage() },
        },
        null,
        2,
      ),
    );
  } finally {
    await temporal.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
