import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createActivities, recalcQueueActivities } from '../activities';
import { withArtifactPaths } from '../activities/artifactPaths';
import type { Config, WorkerConfig } from '../config/schema';
import { createSandboxFactory } from '../lib/sandbox';
import { warmHttpClient } from '../lib/llm/warmHttpClient';
import { createRecalculator } from '../lib/recalc';
import type { SandboxFactory } from '../lib/sandbox/types';
import type { Recalculator } from '../lib/recalc/types';
import { workflowBundle } from './workflowBundle';
import { failoverWorkerOptions } from '../lib/temporal/failover';

export interface WorkerSet {
  workers: Worker[];
  run(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The main worker (workflows + inference/execution/scoring) and, unless disabled, the recalc worker (LibreOffice or Excel). */
export async function createWorkers(
  connection: NativeConnection,
  config: Config,
  opts: { recalc?: boolean; main?: boolean } = {},
): Promise<WorkerSet> {
  const workers: Worker[] = [];
  const closers: (() => Promise<void>)[] = [];
  if (opts.main ?? true) workers.push(await createMainWorker(connection, config));
  if ((opts.recalc ?? true) && config.recalc.engine !== 'none') {
    const { worker, close } = await createRecalcWorker(connection, config);
    workers.push(worker);
    closers.push(close);
  }
  return {
    workers,
    run: async () => {
      try {
        await Promise.all(workers.map((w) => w.run()));
      } finally {
        for (const close of closers) await close();
      }
    },
    // Only running workers can be asked to stop (a second request, or one during start-up, would throw).
    shutdown: async () => workers.filter((w) => w.getState() === 'RUNNING').forEach((w) => w.shutdown()),
  };
}

async function createMainWorker(connection: NativeConnection, config: Config): Promise<Worker> {
  let factory: Promise<SandboxFactory> | undefined;
  await warmHttpClient();
  const activities = withArtifactPaths(
    createActivities({ config, sandboxFactory: () => (factory ??= createSandboxFactory(config.sandbox)) }),
    config.artifacts,
  );
  return Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
    ...workerOptions(config.worker),
    ...failoverWorkerOptions(config),
    shutdownGraceTime: '5s',
  });
}

/** The config's worker section as SDK options (unset ones are left to the SDK's defaults). */
export function workerOptions({
  stickyQueueScheduleToStartTimeoutMs,
  ...counts
}: WorkerConfig): Partial<WorkerOptions> {
  const set = Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== undefined));
  return stickyQueueScheduleToStartTimeoutMs === undefined
    ? set
    : { ...set, stickyQueueScheduleToStartTimeout: stickyQueueScheduleToStartTimeoutMs };
}

async function createRecalcWorker(
  connection: NativeConnection,
  config: Config,
): Promise<{ worker: Worker; close: () => Promise<void> }> {
  let engine: Promise<Recalculator> | undefined;
  const recalcEngine = config.recalc.engine as Exclude<typeof config.recalc.engine, 'none'>;
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.recalcTaskQueue,
    activities: withArtifactPaths(
      recalcQueueActivities(() => (engine ??= Promise.resolve(createRecalculator(recalcEngine)))),
      config.artifacts,
    ),
    // One LibreOffice instance (or Excel) converts one file at a time; more slots would only queue inside it.
    maxConcurrentActivityTaskExecutions: 2,
    ...failoverWorkerOptions(config),
    shutdownGraceTime: '5s',
  });
  return { worker, close: async () => void (engine && (await (await engine).close())) };
}
