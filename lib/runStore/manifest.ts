import { writeFile, mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile } from '../json';

/**
 * The benchmark of a run.json that names none: runs were SpreadsheetBench runs before run.json named its benchmark. The
 * record format's default, not a decision about a benchmark (those are the Benchmark's, in benchmarks/).
 */
export const UNNAMED_BENCHMARK = 'spreadsheetbench';

/** `run.json`: what defines a run. Activities read the model settings from here, never secrets (keys stay in the worker's env). */
export const runManifestSchema = z.object({
  runId: z.string(),
  /** A registered benchmark (benchmarks/index.ts) and the edition its dataset folder holds. */
  benchmark: z.string().default(UNNAMED_BENCHMARK),
  edition: z.string().optional(),
  /** Benchmark-specific settings that define the experiment (e.g. DSBench's judge model and template). */
  benchmarkSettings: z.record(z.string(), z.unknown()).optional(),
  agent: z.string(),
  /** `<setting>` of the official output folder name (`single`, `multi_row_exec`, ...). */
  setting: z.string(),
  datasetDir: z.string(),
  datasetVersion: z.string(),
  scoringMode: z.enum(['official', 'strict']),
  createdAt: z.string(),
  taskCount: z.number().int().nonnegative(),
  /**
   * Independent attempts per task (`run --epochs K`; absent = 1). Not part of the experiment hash: repeats sample the
   * same experiment more often. The attempts are listed in `attempts.json`.
   */
  epochs: z.number().int().positive().optional(),
  llm: z.object({
    provider: z.enum(['openai', 'local']),
    baseUrl: z.string().optional(),
    model: z.string(),
    temperature: z.number().optional(),
    maxTokens: z.number().int().optional(),
    /** `llm.reasoningEffort` (reasoning models); part of the experiment when set. */
    reasoningEffort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
    localModelPath: z.string().optional(),
    /**
     * `run --batch`: the batch settings the run was started with (config `llm.batch`). Not part of the experiment: a
     * call answered in a batch is the same call.
     */
    batch: z
      .object({
        priceFactor: z.number(),
        maxRequests: z.number().int(),
        windowMs: z.number().int(),
        pollIntervalMs: z.number().int(),
      })
      .optional(),
  }),
  /**
   * How the run's answers are judged where a judge outside the experiment does it (SpreadsheetBench 2's vision judge:
   * model, endpoint host, prompt version, rules commit), from the config when the run was created. Not part of the
   * experiment hash: `rejudge` may judge again with other settings, which the judgments themselves record.
   */
  judge: z.record(z.string(), z.unknown()).optional(),
  agentSettings: z.object({
    /** Config `spreadsheetbench.maxSteps`, under the name runs have always recorded (the experiment hash covers it). */
    maxTurns: z.number().int(),
    maxRevisions: z.number().int(),
    previewRows: z.number().int(),
    promptVersion: z.string(),
  }),
  experimentHash: z.string(),
});
export type RunManifest = z.infer<typeof runManifestSchema>;

/** The hash of what defines the experiment: a resume continues only the same experiment. */
export function experimentHash(m: Omit<RunManifest, 'experimentHash' | 'runId' | 'createdAt'>): string {
  const defining = {
    datasetVersion: m.datasetVersion,
    agent: m.agent,
    agentSettings: m.agentSettings,
    model: m.llm.model,
    temperature: m.llm.temperature ?? null,
    maxTokens: m.llm.maxTokens ?? null,
    // Only when set, so the hashes of runs recorded before it existed stay valid.
    ...(m.llm.reasoningEffort ? { reasoningEffort: m.llm.reasoningEffort } : {}),
    scoringMode: m.scoringMode,
    // Only for runs that have them, so the hashes of runs recorded before benchmarks existed stay valid.
    ...(m.benchmark !== UNNAMED_BENCHMARK ? { benchmark: m.benchmark } : {}),
    ...(m.benchmarkSettings ? { benchmarkSettings: m.benchmarkSettings } : {}),
  };
  return createHash('sha256').update(JSON.stringify(defining)).digest('hex').slice(0, 16);
}

/** The run's manifest; no run.json is "no run at …", one that does not parse or match throws a CorruptFileError. */
export async function readManifest(runDir: string): Promise<RunManifest> {
  const read = await readJsonFile(path.join(runDir, 'run.json'), runManifestSchema);
  if (read.kind === 'missing') throw new Error(`no run at ${runDir} (missing run.json)`);
  const manifest = read.value;
  return { ...manifest, datasetDir: datasetDirOf(runDir, manifest.datasetDir) };
}

/**
 * A dataset kept in the run store is recorded relative to the run folder (`../../datasets/dev20`, `/`-separated), so
 * every host finds it wherever it mounts the store; elsewhere it is an absolute path (same place on every host).
 */
export function datasetDirOf(runDir: string, recorded: string): string {
  return path.isAbsolute(recorded) ? recorded : path.resolve(runDir, ...recorded.split('/'));
}

/** How run.json records the dataset folder: relative to the run folder when both are inside the artifacts root. */
export function recordedDatasetDir(runDir: string, datasetDir: string, artifactsRoot: string | undefined): string {
  if (!artifactsRoot) return datasetDir;
  const root = path.resolve(artifactsRoot);
  const inside = (p: string) => !path.relative(root, p).startsWith('..') && !path.isAbsolute(path.relative(root, p));
  return inside(runDir) && inside(datasetDir)
    ? path.relative(runDir, datasetDir).split(path.sep).join('/')
    : datasetDir;
}

export async function writeManifest(runDir: string, m: RunManifest): Promise<void> {
  await mkdir(runDir, { recursive: true });
  await writeFile(path.join(runDir, 'run.json'), JSON.stringify(m, null, 2));
}
