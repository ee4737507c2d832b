import type { RunContext } from '../lib/runStore/runContext';
import type { Config } from '../config/schema';
import { DatasetError } from './spreadsheetbench/dataset';

/** A task as it stands in a run's tasks.json: each benchmark keeps its own record shape, keyed by `id`. */
export interface TaskRecord {
  id: number | string;
}

export interface LoadedTasks<T extends TaskRecord = TaskRecord> {
  tasks: T[];
  /** Identifies the dataset's content (a resume refuses a changed dataset). */
  datasetVersion: string;
}

export interface SelectOptions {
  ids?: string[];
  limit?: number;
}

/**
 * A benchmark = how to recognise its dataset folder (and edition), how to load its tasks, which task workflow runs one
 * task, and how a finished run is scored into its summary. The run workflow only knows the task workflow's type name.
 */
export interface Benchmark<T extends TaskRecord = TaskRecord> {
  /** `--benchmark` value, run.json `benchmark`, the `BenchBenchmark` search attribute. */
  readonly name: string;
  readonly title: string;
  /** Known editions; the first is the default when detection cannot tell. */
  readonly editions: readonly string[];
  /** Settings (`--agent`) this benchmark runs; the first is the default. */
  readonly settings: readonly string[];
  /** Workflow type started for each task (registered in workflows/index.ts). */
  readonly taskWorkflow: string;
  /** The edition of `datasetDir` when the folder holds this benchmark's data, else null. */
  detect(datasetDir: string): Promise<string | null>;
  loadTasks(datasetDir: string, edition: string, select: SelectOptions): Promise<LoadedTasks<T>>;
  /** The content version of the dataset as it is now (compared on resume). */
  datasetVersion(datasetDir: string): Promise<string>;
  /** Official output folder name part (`<setting>_<model>`) for a setting. */
  outputSetting(setting: string): string;
  /** Prompt version of a setting (recorded in run.json; a resume refuses another). */
  promptVersion(setting: string): string;
  /** Benchmark-specific settings of a new run, resolved from the config (recorded in run.json, part of the experiment). */
  settingsFrom?(config: Config, setting: string): Promise<Record<string, unknown>>;
  /** Writes the run's report (report.md, report.html, an Inspect log where it has one); without it the SpreadsheetBench report is used. */
  writeReport?(opts: { runDir: string; outDir?: string }): Promise<{ markdown: string; html: string; inspectLog?: string; finishedTasks: number; pendingTasks: number }>;
  /** After the last task: scores the run from the per-task results and writes summary.json (+ official files). */
  finalize(ctx: RunContext): Promise<unknown>;
}

/** A dataset folder that is no known benchmark, or an unknown benchmark/edition name (exit code 4, like any dataset error). */
export class BenchmarkError extends DatasetError {
  override name = 'BenchmarkError';
}
