import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { writeJsonAtomic } from '../lib/runStore/files';
import { experimentHash, recordedDatasetDir, writeManifest, type RunManifest } from '../lib/runStore/manifest';
import type { Config } from '../config/schema';
import { usesLocalModel } from '../lib/llm';
import { assertPricedForBudget, runPricingOf, type RunPricing } from '../lib/llm/pricing';
import { writeRunPrices } from './runPrices';
import { BENCHMARKS, detectBenchmark, type Benchmark, type Detected } from '../benchmarks';
import { ambiguousWithAttempts, attemptKeys, DatasetError, type TaskRecord } from '../lib/runStore/taskRecord';
import { datasetFolderOf } from '../benchmarks/archive';

/** The attempts of a run with repeats, in the order the run starts them (the run workflow's task list). */
export const ATTEMPTS_FILE = 'attempts.json';

/** The embedded CPU model writes 5-10 tokens a second: cap its replies so a reply that loops cannot hold a task for long; code fits. */
const LOCAL_MODEL_MAX_TOKENS = 1024;

export interface RunPlanOptions {
  /** A dataset folder, or a SpreadsheetBench release `.tar.gz` (unpacked once per checksum). */
  datasetDir: string;
  /** Override detection (`--benchmark`, `--edition`). */
  benchmark?: string;
  edition?: string;
  /** The setting (`--agent`); default: the benchmark's first. */
  agent?: string;
  taskIds?: string[];
  limit?: number;
  /** Where `.tar.gz` release archives are unpacked (default .state/datasets). */
  datasetCacheDir?: string;
  /** Independent attempts per task (`--epochs`, default 1). */
  epochs?: number;
}

/** What a new run will be, from the dataset folder read once: its benchmark, edition, setting and selected tasks. */
export interface RunPlan {
  datasetDir: string;
  benchmark: Benchmark;
  edition: string;
  how: Detected['how'];
  agent: string;
  tasks: TaskRecord[];
  datasetVersion: string;
  epochs: number;
}

/** Reads the dataset folder once and checks the request (benchmark, edition, setting, task ids): nothing is written yet. */
export async function planRun(opts: RunPlanOptions): Promise<RunPlan> {
  const datasetDir = await datasetFolderOf(path.resolve(opts.datasetDir), opts.datasetCacheDir);
  const { benchmark, edition, how, dataset } = await detectBenchmark(datasetDir, {
    benchmark: opts.benchmark,
    edition: opts.edition,
  });
  const agent = opts.agent ?? benchmark.settings[0];
  if (!benchmark.settings.includes(agent))
    throw new Error(`unknown ${benchmark.name} agent ${agent} (known: ${benchmark.settings.join(', ')})`);
  const tasks = benchmark.select(dataset.tasks, { ids: opts.taskIds, limit: opts.limit });
  const epochs = opts.epochs ?? 1;
  if (!Number.isInteger(epochs) || epochs < 1) throw new Error(`--epochs must be a whole number ≥ 1, got ${epochs}`);
  if (epochs > 1) checkRepeatable(benchmark, tasks);
  return { datasetDir, benchmark, edition, how, agent, tasks, datasetVersion: dataset.version, epochs };
}

/** Repeats name each attempt `<id>@<epoch>`: only benchmarks that keep attempts apart take them, and no id may look like one. */
function checkRepeatable(benchmark: Benchmark, tasks: TaskRecord[]): void {
  if (!benchmark.repeatsTasks)
    throw new DatasetError(
      `--epochs above 1 is supported for ${BENCHMARKS.filter((b) => b.repeatsTasks)
        .map((b) => b.title)
        .join(', ')} runs only (this dataset is ${benchmark.title})`,
    );
  const ambiguous = ambiguousWithAttempts(tasks);
  if (ambiguous.length)
    throw new DatasetError(
      `--epochs above 1: task ids ${ambiguous.join(', ')} end in @<number>, which names a repeated attempt`,
    );
}

export interface CreateRunOptions {
  runId?: string;
  runDir?: string;
  /** Benchmark-specific settings recorded in run.json (part of the experiment); default: the benchmark's, from the config. */
  benchmarkSettings?: Record<string, unknown>;
  /** `run --batch`: model calls go through the provider's batch API (config `llm.batch`, recorded in run.json). */
  batch?: boolean;
}

/** Writes a new run folder: run.json (the experiment) and tasks.json (the planned task records). */
export async function createRun(
  config: Config,
  plan: RunPlan,
  opts: CreateRunOptions = {},
): Promise<{ manifest: RunManifest; runDir: string; tasks: TaskRecord[]; pricing: RunPricing }> {
  const { benchmark, agent, tasks } = plan;
  const runId =
    opts.runId ?? `run-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomUUID().slice(0, 6)}`;
  const runDir = path.resolve(opts.runDir ?? path.join('runs', runId));
  const benchmarkSettings = opts.benchmarkSettings ?? (await benchmark.settingsFrom?.(config, agent));
  const pricing = pricingOf(config, benchmarkSettings);
  assertPricedForBudget(pricing, dollarBudgetOf(config));
  const base = {
    benchmark: benchmark.name,
    edition: plan.edition,
    ...(benchmarkSettings ? { benchmarkSettings } : {}),
    agent,
    setting: benchmark.outputSetting(agent),
    datasetDir: recordedDatasetDir(runDir, plan.datasetDir, config.artifacts.root),
    datasetVersion: plan.datasetVersion,
    scoringMode: config.spreadsheetbench.scoringMode,
    taskCount: tasks.length,
    ...(plan.epochs > 1 ? { epochs: plan.epochs } : {}),
    llm: {
      provider: usesLocalModel(config.llm) ? ('local' as const) : ('openai' as const),
      baseUrl: config.llm.baseUrl,
      model: config.llm.model,
      temperature: config.llm.temperature,
      maxTokens: config.llm.maxTokens ?? (usesLocalModel(config.llm) ? LOCAL_MODEL_MAX_TOKENS : undefined),
      ...(config.llm.reasoningEffort ? { reasoningEffort: config.llm.reasoningEffort } : {}),
      localModelPath: config.llm.localModelPath,
      ...(opts.batch ? { batch: config.llm.batch } : {}),
    },
    // Recorded names (run.json, its experiment hash, task histories): `maxTurns` is config spreadsheetbench.maxSteps.
    agentSettings: {
      maxTurns: config.spreadsheetbench.maxSteps,
      maxRevisions: config.spreadsheetbench.maxRevisions,
      previewRows: config.spreadsheetbench.previewRows,
      promptVersion: benchmark.promptVersion(agent),
    },
  };
  const judge = benchmark.judgeSettingsFrom?.(config);
  const manifest: RunManifest = {
    ...base,
    ...(judge ? { judge } : {}),
    runId,
    createdAt: new Date().toISOString(),
    experimentHash: experimentHash(base),
  };
  await writeManifest(runDir, manifest);
  await writeJsonAtomic(path.join(runDir, 'tasks.json'), tasks);
  if (plan.epochs > 1) await writeJsonAtomic(path.join(runDir, ATTEMPTS_FILE), attemptKeys(tasks, plan.epochs));
  await writeRunPrices(runDir, pricing);
  return { manifest: { ...manifest, datasetDir: plan.datasetDir }, runDir, tasks, pricing };
}

/**
 * The prices of the run's models; refuses (UnknownPriceError) a dollar budget on a model without one. `createRun` checks
 * it too; the CLI asks first, so the refusal comes before the endpoint is asked anything.
 */
export async function checkRunPricing(config: Config, plan: RunPlan): Promise<RunPricing> {
  const pricing = pricingOf(config, await plan.benchmark.settingsFrom?.(config, plan.agent));
  assertPricedForBudget(pricing, dollarBudgetOf(config));
  return pricing;
}

/** Every model the run calls (the agent's, and a judge's when the benchmark has one), priced as the workers price it. */
function pricingOf(config: Config, benchmarkSettings: Record<string, unknown> | undefined): RunPricing {
  const judge = benchmarkSettings?.judgeModel;
  const models = [config.llm.model, ...(typeof judge === 'string' ? [judge] : [])];
  return runPricingOf(models, {
    prices: config.llm.prices,
    baseUrl: config.llm.baseUrl,
    local: usesLocalModel(config.llm),
  });
}

function dollarBudgetOf(config: Config): { key: string; usd: number } | undefined {
  if (config.run.budgetUsd !== undefined) return { key: 'run.budgetUsd (--budget-usd)', usd: config.run.budgetUsd };
  if (config.run.taskBudgetUsd !== undefined) return { key: 'run.taskBudgetUsd', usd: config.run.taskBudgetUsd };
  return undefined;
}
