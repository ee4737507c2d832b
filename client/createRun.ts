import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { writeJsonAtomic } from '../lib/runStore/files';
import { experimentHash, recordedDatasetDir, writeManifest, type RunManifest } from '../lib/runStore/manifest';
import type { Config } from '../config/schema';
import { usesLocalModel } from '../lib/llm';
import { benchmarkNamed, detectBenchmark, type TaskRecord } from '../benchmarks';
import { datasetFolderOf } from '../benchmarks/archive';

/** The embedded CPU model writes a few tokens a second: cap its replies so the default job ends in minutes. */
const LOCAL_MODEL_MAX_TOKENS = 256;

export interface CreateRunOptions {
  datasetDir: string;
  /** The setting (`--agent`); default: the benchmark's first. */
  agent?: string;
  /** Override detection (`--benchmark`, `--edition`). */
  benchmark?: string;
  edition?: string;
  runId?: string;
  runDir?: string;
  taskIds?: string[];
  limit?: number;
  /** Where `.tar.gz` release archives are unpacked (default .state/datasets). */
  datasetCacheDir?: string;
  /** Benchmark-specific settings recorded in run.json (part of the experiment). */
  benchmarkSettings?: Record<string, unknown>;
}

/** Writes a new run folder: run.json (the experiment) and tasks.json (the selected task records). */
export async function createRun(config: Config, opts: CreateRunOptions): Promise<{ manifest: RunManifest; runDir: string; tasks: TaskRecord[] }> {
  const datasetDir = await datasetFolderOf(path.resolve(opts.datasetDir), opts.datasetCacheDir);
  const { benchmark, edition } = await detectBenchmark(datasetDir, { benchmark: opts.benchmark, edition: opts.edition });
  const agent = opts.agent ?? benchmark.settings[0];
  if (!benchmark.settings.includes(agent)) throw new Error(`unknown ${benchmark.name} agent ${agent} (known: ${benchmark.settings.join(', ')})`);
  const { tasks, datasetVersion } = await benchmark.loadTasks(datasetDir, edition, { ids: opts.taskIds, limit: opts.limit });
  const runId = opts.runId ?? `run-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomUUID().slice(0, 6)}`;
  const runDir = path.resolve(opts.runDir ?? path.join('runs', runId));
  const benchmarkSettings = opts.benchmarkSettings ?? (await benchmark.settingsFrom?.(config, agent));
  const base = {
    benchmark: benchmark.name,
    edition,
    ...(benchmarkSettings ? { benchmarkSettings } : {}),
    agent,
    setting: benchmark.outputSetting(agent),
    datasetDir: recordedDatasetDir(runDir, datasetDir, config.artifacts.root),
    datasetVersion,
    scoringMode: config.run.scoringMode,
    taskCount: tasks.length,
    llm: {
      provider: usesLocalModel(config.llm) ? ('local' as const) : ('openai' as const),
      baseUrl: config.llm.baseUrl,
      model: config.llm.model,
      temperature: config.llm.temperature,
      maxTokens: config.llm.maxTokens ?? (usesLocalModel(config.llm) ? LOCAL_MODEL_MAX_TOKENS : undefined),
      localModelPath: config.llm.localModelPath,
    },
    agentSettings: {
      maxTurns: config.run.maxTurns,
      maxRevisions: config.run.maxRevisions,
      previewRows: config.run.previewRows,
      promptVersion: benchmark.promptVersion(agent),
    },
  };
  const manifest: RunManifest = { ...base, runId, createdAt: new Date().toISOString(), experimentHash: experimentHash(base) };
  await writeManifest(runDir, manifest);
  await writeJsonAtomic(path.join(runDir, 'tasks.json'), tasks);
  return { manifest: { ...manifest, datasetDir }, runDir, tasks };
}

/** Prompt version of a run's setting, as the code now defines it. */
export function promptVersionOf(manifest: Pick<RunManifest, 'benchmark' | 'agent'>): string {
  return benchmarkNamed(manifest.benchmark).promptVersion(manifest.agent);
}

/** Content version of a run's dataset as it is now on disk. */
export function datasetVersion(manifest: Pick<RunManifest, 'benchmark' | 'datasetDir'>): Promise<string> {
  return benchmarkNamed(manifest.benchmark).datasetVersion(manifest.datasetDir);
}
