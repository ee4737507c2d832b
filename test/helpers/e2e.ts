import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { configSchema, type Config } from '../../config/schema';

/** Config sections and fields a test overrides (unknown keys are type errors, as the schema refuses them). */
export type ConfigOverrides = { [S in keyof Config]?: Partial<{ [K in keyof Config[S]]: unknown }> };
import { connectClient } from '../../lib/temporal/connection';
import { connectWorkerConnection } from '../../workers/connection';
import { createWorkers, type WorkerSet } from '../../workers/createWorkers';
import { createRun, planRun } from '../../client/createRun';
import { startRunWorkflow } from '../../client/startRun';
import type { RunProgress } from '../../contracts/run';
import type { TaskResult } from '../../contracts/taskResult';
import { startScriptedServer, type Script, type ScriptedServer } from '../../lib/scriptedLlm';
import { reportTimeouts } from './timeoutReport';
import { startTestTemporal, type TestTemporal, type TestTemporalOptions } from './temporalServer';

/** A real Temporal dev server, a scripted OpenAI-compatible server and a config pointing at both. */
export interface E2EEnv<Model extends ModelEndpoint = ScriptedServer> {
  temporal: TestTemporal;
  llm: Model;
  client: Client;
  config: Config;
  close(): Promise<void>;
}

/** Any OpenAI-compatible model the env can point at and close (the in-process scripted server, or a bench's child process). */
export interface ModelEndpoint {
  url: string;
  close(): Promise<void>;
}

/**
 * Config of a test that kills workers (kill -9): their work moves to the next worker within seconds instead of the
 * workflows' 20–30 s heartbeat timeouts and Temporal's 10 s workflow task and sticky queue timeouts, which such a test
 * otherwise sits out idle. The heartbeat cap still leaves a busy live worker ~6 s of slack (heartbeats every 2 s, sent
 * within 1 s), more than the 4 s the workflows' 20 s timeouts leave under the SDK's default throttle.
 */
export const FAST_FAILOVER = {
  temporal: { failover: { heartbeatTimeoutMs: 8_000, workflowTaskTimeoutMs: 5_000 } },
  worker: { stickyQueueScheduleToStartTimeoutMs: 3_000 },
} satisfies ConfigOverrides;

export async function startE2E(
  script: Script,
  overrides: {
    config?: ConfigOverrides;
    llmLogFile?: string;
    devServer?: TestTemporalOptions;
  } = {},
): Promise<E2EEnv> {
  return startE2EWith(await startScriptedServer({ script, logFile: overrides.llmLogFile }), overrides);
}

/** The same env around a model started by the caller (it is closed with the env). */
export async function startE2EWith<Model extends ModelEndpoint>(
  llm: Model,
  overrides: { config?: ConfigOverrides; devServer?: TestTemporalOptions } = {},
): Promise<E2EEnv<Model>> {
  const temporal = await startTestTemporal(overrides.devServer);
  const suffix = randomUUID().slice(0, 8);
  const base = {
    temporal: {
      address: temporal.address,
      namespace: temporal.namespace,
      taskQueue: `main-${suffix}`,
      recalcTaskQueue: `recalc-${suffix}`,
    },
    llm: { provider: 'openai', baseUrl: llm.url, apiKey: 'test-key-not-secret', model: 'scripted-model' },
    sandbox: { backend: 'bwrap' },
    run: { concurrency: 4 },
    // The web server's token, cookie secret and audit log: the test's own, never the checkout's .state/.
    server: { stateDir: mkdtempSync(path.join(os.tmpdir(), 'sb-server-')) },
  };
  const config = configSchema.parse(merge(base, overrides.config ?? {}));
  const client = await connectClient({ address: temporal.address, namespace: temporal.namespace });
  return {
    temporal,
    llm,
    client,
    config,
    async close() {
      const report = process.env.SHEETBENCH_TEST_TIMEOUT_REPORT;
      if (report) await reportTimeouts(client, report);
      await client.connection.close();
      await llm.close();
      await temporal.stop();
    },
  };
}

export interface StartedRun {
  runDir: string;
  runId: string;
  handle: WorkflowHandle;
}

export async function startBenchmarkRun(
  env: E2EEnv<ModelEndpoint>,
  opts: {
    dataset: string;
    agent?: string;
    tasks?: string[];
    runDir?: string;
    limit?: number;
    runId?: string;
    epochs?: number;
    /** `run --batch`. */
    batch?: boolean;
    /** The config the run is created with (default: the env's). */
    config?: Config;
  },
): Promise<StartedRun> {
  const runDir = opts.runDir ?? mkdtempSync(path.join(os.tmpdir(), 'sb-run-'));
  const plan = await planRun({
    datasetDir: opts.dataset,
    agent: opts.agent ?? 'single',
    taskIds: opts.tasks,
    limit: opts.limit,
    epochs: opts.epochs,
  });
  const { manifest } = await createRun(opts.config ?? env.config, plan, {
    runDir,
    runId: opts.runId ?? `test-${randomUUID().slice(0, 8)}`,
    batch: opts.batch,
  });
  const handle = await startRunWorkflow(env.client, env.config, manifest, runDir);
  return { runDir, runId: manifest.runId, handle };
}

/** Runs in-process workers until the run workflow completes. */
export async function runToEnd(env: E2EEnv<ModelEndpoint>, run: StartedRun): Promise<RunProgress> {
  const serving = await serveWith(env);
  try {
    return (await run.handle.result()) as RunProgress;
  } finally {
    await serving.stop();
  }
}

/** In-process workers serving the env's queues until `stop` (for tests that drive several runs). */
export async function serveWith(env: E2EEnv<ModelEndpoint>): Promise<{ stop(): Promise<void> }> {
  const workers = await startInProcessWorkers(env);
  const running = workers.run();
  return {
    async stop() {
      await workers.shutdown();
      await running;
    },
  };
}

export async function startInProcessWorkers(
  env: E2EEnv<ModelEndpoint>,
  opts: { main?: boolean; recalc?: boolean } = {},
): Promise<WorkerSet> {
  const connection = await connectWorkerConnection({
    address: env.temporal.address,
    namespace: env.temporal.namespace,
  });
  return createWorkers(connection, env.config, opts);
}

export function readTaskResult(runDir: string, taskId: string): TaskResult {
  return JSON.parse(readFileSync(path.join(runDir, 'results', `${taskId}.json`), 'utf8')) as TaskResult;
}

export function outputExists(runDir: string, outputsName: string, taskId: string, n: number): boolean {
  return existsSync(path.join(runDir, 'outputs', outputsName, `${n}_${taskId}_output.xlsx`));
}

/** The env a worker child process needs to join this test's Temporal server and queues. */
export function workerProcessEnv(env: E2EEnv<ModelEndpoint>): NodeJS.ProcessEnv {
  const configFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-cfg-')), 'config.json');
  writeFileSync(configFile, JSON.stringify(env.config));
  return {
    ...process.env,
    SHEETBENCH_CONFIG: configFile,
    TEMPORAL_ADDRESS: env.temporal.address,
    TEMPORAL_NAMESPACE: env.temporal.namespace,
  };
}

function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object'
        ? merge(a[k] as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
