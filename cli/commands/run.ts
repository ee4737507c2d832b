import type { Command } from 'commander';
import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { loadConfig } from '../../config/load';
import type { Config } from '../../config/schema';
import { checkRunPricing, createRun, planRun } from '../../client/createRun';
import { batchRefusal } from '../../client/batchSuitability';
import { formatBatchStatuses, readBatchStatuses } from '../../client/batchStatus';
import { describeBatchMode } from '../batchStatus';
import { BENCHMARKS, benchmarkNamed } from '../../benchmarks';
import { readManifest } from '../../lib/runStore/manifest';
import { connectClient } from '../../lib/temporal/connection';
import { startRunWorkflow, RunExistsError } from '../../client/startRun';
import { progressQuery, resumeSignal, type RunProgress } from '../../contracts/run';
import type { WorkerSet } from '../../workers/createWorkers';
import { resolveTemporal, type TemporalSession } from '../temporalSession';
import { formatProgress } from '../progressBar';
import { describePricing } from '../../lib/llm/pricing';
import { unpricedModelsOf } from '../../client/runPrices';
import { locateRun } from '../runRef';
import { preflightModel, PreflightError } from '../../lib/llm/preflight';
import { followInterrupts } from '../interrupts';
import { pollProgress } from '../progressPoller';
import { experimentDifferences } from '../../client/experiment';
import { CliError, EXIT } from '../exitCodes';
import { assertReadyToStart, DOCTOR_HINT } from '../doctor/startup';

const log = (line: string) => process.stderr.write(`${line}\n`);

interface RunFlags {
  dataset: string;
  benchmark?: string;
  edition?: string;
  agent?: string;
  model?: string;
  baseUrl?: string;
  concurrency?: string;
  runId?: string;
  out?: string;
  tasks?: string;
  limit?: string;
  epochs?: string;
  worker: boolean;
  budgetUsd?: string;
  budgetTokens?: string;
  mode?: 'official' | 'strict';
  preflight: boolean;
  batch?: boolean;
}

export function registerRunCommands(program: Command): void {
  program
    .command('run')
    .description(
      'run an agent on a benchmark dataset (SpreadsheetBench, DSBench, the analysis suite), durably, and print the scores',
    )
    .requiredOption(
      '--dataset <dir>',
      'dataset folder or SpreadsheetBench release .tar.gz (benchmark and edition are detected from it)',
    )
    .option('--benchmark <name>', `benchmark, overriding detection: ${BENCHMARKS.map((b) => b.name).join(' | ')}`)
    .option('--edition <name>', 'edition, overriding detection (e.g. verified_400)')
    .option(
      '--agent <name>',
      "setting: single | row_exec | react_exec | row_react_exec | sheetcopilot | checked_vote (SpreadsheetBench, default single; checked_vote is our own agent); swe_agent | checked_vote (SpreadsheetBench 2: the paper's scaffold, bash + view_xlsx + submit, default; or our own agent); model-only | agent (DSBench); a pattern, default auto (analysis: auto | direct | react | plan_execute | reflection | iterative | tree_of_thoughts | ensemble)",
    )
    .option('--model <name>', 'model name (default: the embedded local model)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (key from OPENAI_API_KEY)')
    .option('--concurrency <n>', 'tasks in flight at once')
    .option('--run-id <id>', 'run id (default: generated)')
    .option('--out <dir>', "the run's folder (default runs/<run-id>)")
    .option('--tasks <ids>', 'comma-separated task ids')
    .option('--limit <n>', 'only the first n tasks')
    .option(
      '--epochs <k>',
      'sample every task k times as independent attempts (distinct cache keys, same prompts; SpreadsheetBench)',
    )
    .option('--budget-usd <usd>', 'run-wide dollar cap (pauses when reached)')
    .option('--budget-tokens <n>', 'run-wide token cap (pauses when reached)')
    .option('--mode <mode>', 'scoring mode: official | strict')
    .option('--no-worker', 'do not start an in-process worker (workers run elsewhere)')
    .option('--no-preflight', 'skip checking the model endpoint, key and model name before the run starts')
    .option(
      '--batch',
      "send the model calls through the endpoint's batch API (files + batches) at its batch price (config llm.batch); single-round settings only",
    )
    .action(async (flags: RunFlags) => {
      const config = loadConfig({
        llm: { model: flags.model, baseUrl: flags.baseUrl },
        run: {
          concurrency: intFlag(flags.concurrency),
          budgetUsd: numFlag(flags.budgetUsd),
          budgetTokens: intFlag(flags.budgetTokens),
        },
        spreadsheetbench: { scoringMode: flags.mode },
      });
      const taskIds = flags.tasks
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      // The dataset folder is read once, here: a bad dataset, task list or setting is named before the model endpoint is asked anything.
      const plan = await planRun({
        datasetDir: flags.dataset,
        benchmark: flags.benchmark,
        edition: flags.edition,
        agent: flags.agent,
        taskIds,
        limit: intFlag(flags.limit),
        epochs: intFlag(flags.epochs),
      });
      if (flags.batch) {
        const refusal = batchRefusal(config, plan);
        if (refusal) throw new CliError(refusal, EXIT.usage);
      }
      await checkRunPricing(config, plan);
      if (flags.preflight) await preflight(config);
      if (flags.worker) await assertReadyToStart(config, { recalc: plan.benchmark.recalculates });
      const { manifest, runDir, pricing } = await createRun(config, plan, {
        runId: flags.runId,
        runDir: flags.out,
        batch: flags.batch,
      });
      log(
        `dataset ${manifest.datasetDir}: ${manifest.benchmark} edition ${manifest.edition} (${plan.how === 'given' ? 'as given' : 'detected'})`,
      );
      log(describePricing(pricing));
      if (manifest.llm.batch) log(describeBatchMode(manifest.llm.batch));
      log(
        `run ${manifest.runId}: ${manifest.taskCount} tasks${plan.epochs > 1 ? ` × ${plan.epochs} epochs` : ''}, agent ${manifest.agent}, model ${manifest.llm.model} (${manifest.llm.provider}); folder ${runDir}`,
      );
      const session = await resolveTemporal(config, log);
      const client = await connectClient(session);
      // Ctrl-C from the moment the run may exist on the server: its start can be seen (`runs`) before it returns here.
      const interrupted = followInterrupts(manifest.runId);
      const handle = await startRunWorkflow(client, config, manifest, runDir).catch((err) => {
        interrupted.dispose();
        if (err instanceof RunExistsError)
          throw new CliError(`${err.message}: use \`sheetbench resume ${manifest.runId}\``, EXIT.usage);
        throw err;
      });
      await followRun(client, session, config, handle, runDir, flags.worker, interrupted);
    });

  program
    .command('worker')
    .description('run workers only (main queue and LibreOffice recalc queue)')
    .option('--no-recalc', 'do not serve the recalc queue')
    .option('--recalc-only', 'serve only the recalc queue')
    .action(async (flags: { recalc: boolean; recalcOnly?: boolean }) => {
      const config = loadConfig();
      const session = await resolveTemporal(config, log);
      const workers = await startWorkers(session, config, { main: !flags.recalcOnly, recalc: flags.recalc });
      log(`worker polling ${session.address} namespace ${session.namespace}`);
      for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void workers.shutdown());
      await workers.run();
    });

  program
    .command('status <run>')
    .description('progress of a run (run id or run folder)')
    .option('--json', 'print JSON')
    .action(async (run: string, flags: { json?: boolean }) => {
      const { handle, runDir } = await openRun(run);
      const progress = await queryProgress(handle);
      const batches = await readBatchStatuses(runDir);
      const json = { ...progress, ...(batches.length ? { batches } : {}) };
      const text = [formatProgress(progress), ...formatBatchStatuses(batches)].join('\n');
      process.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
    });

  program
    .command('resume <run>')
    .description(
      'continue a run after the CLI or worker was killed (or a pause): start a worker and follow it to its end',
    )
    .option('--no-worker', 'do not start an in-process worker')
    .option('--model <name>', 'refuse unless the run was started with this model')
    .option('--agent <name>', 'refuse unless the run was started with this agent')
    .option('--mode <mode>', 'refuse unless the run was started with this scoring mode')
    .action(async (run: string, flags: { worker: boolean; model?: string; agent?: string; mode?: string }) => {
      const { client, session, config, handle, runDir, manifest } = await openRun(run);
      // A resume continues only the experiment that was started (dataset, agent, prompts, model, scorer).
      const differs = await experimentDifferences(manifest, {
        model: flags.model,
        agent: flags.agent,
        scoringMode: flags.mode,
      });
      if (differs.length) {
        await client.connection.close();
        throw new CliError(
          `run ${manifest.runId} (${runDir}) is a different experiment: ${differs.join('; ')}`,
          EXIT.mismatch,
        );
      }
      if (flags.worker) {
        const llm = { ...config.llm, ...manifest.llm, apiKey: config.llm.apiKey };
        await preflight({ ...config, llm });
        await assertReadyToStart({ ...config, llm }, { recalc: benchmarkNamed(manifest.benchmark).recalculates });
      }
      await handle.signal(resumeSignal).catch(() => undefined); // an ended run takes no signal: followRun shows its state
      await followRun(client, session, config, handle, runDir, flags.worker);
    });
}

/** A `run --batch` run's batches: each new status line once (batch id, status, answered and failed calls). */
async function printBatchChanges(runDir: string, printed: Set<string>, tty: boolean): Promise<void> {
  const lines = formatBatchStatuses(await readBatchStatuses(runDir).catch(() => []));
  for (const l of lines.filter((x) => !printed.has(x))) {
    printed.add(l);
    process.stderr.write(`${tty ? '\r\x1b[K' : ''}${l}\n`);
  }
}

export async function followRun(
  client: Client,
  session: TemporalSession,
  config: Config,
  handle: WorkflowHandle,
  runDir: string,
  withWorker: boolean,
  // Installed when called, before anything here awaits: a Ctrl-C while the worker's modules load still ends with 130
  // and the resume command (it once killed the CLI silently in that moment).
  interrupted = followInterrupts(handle.workflowId.split('/')[0]),
): Promise<void> {
  let workers: WorkerSet | undefined;
  let workersDone: Promise<void> | undefined;
  (await import('../../workers/runtime')).focusWorkerLog(handle.workflowId.split('/')[0]);
  log(
    `following run ${handle.workflowId}${withWorker ? ' with a worker in this process' : ''}; Ctrl-C stops this CLI, not the run`,
  );
  if (withWorker) {
    workers = await startWorkers(session, config, {});
    workersDone = workers.run();
  }
  const tty = process.stderr.isTTY;
  const unpriced = await unpricedModelsOf(runDir);
  const line = (p: RunProgress) => formatProgress(p, Date.now(), 24, { unpriced });
  let lastPrinted = 0;
  const batchLines = new Set<string>();
  const poller = pollProgress(
    (signal) => client.connection.withAbortSignal(signal, () => queryProgress(handle)),
    (p) => {
      void printBatchChanges(runDir, batchLines, tty);
      if (tty) process.stderr.write(`\r${line(p)}\x1b[K`);
      else if (Date.now() - lastPrinted > 10_000) {
        lastPrinted = Date.now();
        log(line(p));
      }
    },
  );
  // The result's long poll is abandoned on Ctrl-C: aborted, and awaited, before the connection closes.
  const abandon = new AbortController();
  const result = client.connection.withAbortSignal(abandon.signal, () => handle.result() as Promise<RunProgress>);
  try {
    const final = await Promise.race([result, interrupted.signalled]);
    if (tty) process.stderr.write('\n');
    log(line(final));
  } finally {
    abandon.abort();
    await Promise.allSettled([result, poller.stop()]);
    if (tty) process.stderr.write('\n');
    if (workers) {
      await workers.shutdown();
      await workersDone;
    }
    // Every user of the connection has finished: nothing is left to retry on it once closed.
    await client.connection.close();
    interrupted.dispose();
  }
  // The benchmark that scored the run says what its summary is.
  const lines = await benchmarkNamed((await readManifest(runDir)).benchmark).summaryLines(runDir);
  if (!lines.length) throw new CliError(`run finished but ${runDir}/summary.json is missing`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (unpriced.length)
    process.stdout.write(
      `cost unknown for ${unpriced.join(', ')}: no price in llm.prices or the price library (the costs above count them as $0; tokens are counted)\n`,
    );
}

/** The worker modules are loaded here, not with the command: `status`, `report` and refusals need none of them. */
export async function startWorkers(
  session: TemporalSession,
  config: Config,
  opts: { main?: boolean; recalc?: boolean },
): Promise<WorkerSet> {
  const [{ connectWorkerConnection }, { createWorkers }] = await Promise.all([
    import('../../workers/connection'),
    import('../../workers/createWorkers'),
  ]);
  const connection = await connectWorkerConnection(session);
  return createWorkers(connection, { ...config, temporal: { ...config.temporal, namespace: session.namespace } }, opts);
}

/** Finds a run by folder or by id (from any directory: Temporal's memo names the folder), and its workflow. */
export async function openRun(run: string) {
  const config = loadConfig();
  const session = await resolveTemporal(config, () => undefined);
  const client = await connectClient(session);
  const runDir = await locateRun(run, client, config.artifacts.root);
  const manifest = await readManifest(runDir);
  const handle = client.workflow.getHandle(manifest.runId);
  try {
    await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      throw new CliError(
        `run ${manifest.runId} is not known to the Temporal server at ${session.address}`,
        EXIT.notFound,
      );
    throw new CliError(`Temporal server at ${session.address} did not answer: ${(err as Error).message}`, EXIT.server);
  }
  return { client, session, config, handle, runDir, manifest };
}

/** Live progress by query; a closed run answers from its result (a query would need a worker to replay it). */
async function queryProgress(handle: WorkflowHandle): Promise<RunProgress> {
  const { status } = await handle.describe();
  if (status.name === 'RUNNING') return handle.query(progressQuery);
  if (status.name === 'COMPLETED') return (await handle.result()) as RunProgress;
  throw new CliError(`run ${handle.workflowId} is ${status.name.toLowerCase()}`, EXIT.failure);
}

async function preflight(config: Config): Promise<void> {
  try {
    await preflightModel(config.llm);
  } catch (err) {
    if (err instanceof PreflightError)
      throw new CliError(`refusing to start: ${err.message}\n${DOCTOR_HINT}`, EXIT.config);
    throw err;
  }
}

function intFlag(v?: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`expected a positive whole number, got ${v}`, EXIT.usage);
  return n;
}

function numFlag(v?: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`expected a positive number, got ${v}`, EXIT.usage);
  return n;
}
