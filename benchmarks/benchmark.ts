import type { Config } from '../config/schema';
import { DatasetError, type SelectOptions, type TaskRecord } from '../lib/runStore/taskRecord';
import type { RunManifest } from '../lib/runStore/manifest';
import type { RunSummary } from './report/runSummary';
import type { TaskView, TestCaseGrid } from './report/taskView';

/** A dataset folder as read once at the start of a run: its edition, every task and its content version. */
export interface DatasetContents<T extends TaskRecord = TaskRecord> {
  edition: string;
  tasks: T[];
  /** Identifies the dataset's content (recorded in run.json; a resume refuses a changed dataset). */
  version: string;
}

/** What `report` wrote. */
export interface WrittenReport {
  markdown: string;
  html: string;
  inspectLog?: string;
  transcriptPages?: number;
  finishedTasks: number;
  pendingTasks: number;
}

/**
 * A benchmark, in the sense of inspect_ai's Task: a dataset (how to recognise and read its folder), a solver (the task
 * workflow that runs one task, by type name, and the settings it takes) and a scorer (`finalize`: the run's summary
 * from the per-task results). The run workflow only knows the task workflow's type name.
 */
export interface Benchmark<T extends TaskRecord = TaskRecord> {
  /** `--benchmark` value, run.json `benchmark`, the `BenchBenchmark` search attribute. */
  readonly name: string;
  readonly title: string;
  /** Known editions; the first is the default. */
  readonly editions: readonly string[];
  /** Settings (`--agent`) this benchmark runs; the first is the default. */
  readonly settings: readonly string[];
  /** Workflow type started for each task (registered in workflows/index.ts). */
  readonly taskWorkflow: string;
  /** Its tasks recalculate their output workbooks: a run needs the recalculation engine (LibreOffice, Excel) ready. */
  readonly recalculates: boolean;
  /** It keeps repeated attempts of a task apart (`run --epochs K`: results, outputs and diffs per `<id>@<epoch>`). */
  readonly repeatsTasks: boolean;
  /**
   * Settings whose model calls take one batch round trip each (`run --batch`): one call a task (and its judge's), not
   * rounds that wait on one another. Absent: none.
   */
  readonly batchSettings?: readonly string[];
  /** Reads the folder once: null when it holds no data of this benchmark; a folder that does but is broken throws DatasetError. */
  read(datasetDir: string): Promise<DatasetContents<T> | null>;
  /** The tasks a run takes (`--tasks`, `--limit`); an unknown id is refused, named. */
  select(tasks: T[], select: SelectOptions): T[];
  /** The content version of the dataset as it is now (compared on resume). */
  datasetVersion(datasetDir: string): Promise<string>;
  /** Official output folder name part (`<setting>_<model>`) for a setting. */
  outputSetting(setting: string): string;
  /** Prompt version of a setting (recorded in run.json; a resume refuses another). */
  promptVersion(setting: string): string;
  /** Benchmark-specific settings of a new run, resolved from the config (recorded in run.json, part of the experiment). */
  settingsFrom?(config: Config, setting: string): Promise<Record<string, unknown>>;
  /** The judge settings of a new run, from the config (run.json `judge`; not part of the experiment). */
  judgeSettingsFrom?(config: Config): Record<string, unknown>;
  /**
   * How a run's answers were judged, as fields `show` and `compare` print (model, host, prompt, …): one entry per
   * distinct setting its judgments were made with; `compare` warns when two runs' differ. Empty: none recorded.
   */
  judgeSettings?(runDir: string, manifest: RunManifest): Promise<Record<string, string>[]>;
  /** After the last task: scores the run from the per-task results and writes summary.json (+ official files). */
  finalize(runDir: string): Promise<unknown>;
  /** What `run` prints when the run has ended, from its summary.json. */
  summaryLines(runDir: string): Promise<string[]>;
  /** Tasks of an edition whose data is known to be wrong (reported upstream): scores are reported with and without them. */
  knownBad?(edition: string | undefined): { why: string; ids: string[] } | undefined;
  /** One task (or attempt `<id>@<epoch>`) of a run as `show` and the task page present it; an unknown task throws TaskViewError. */
  describeTask?(runDir: string, task: string, opts?: { epoch?: number }): Promise<TaskView>;
  /** Benchmarks whose answers are workbooks: a test case of a task (or attempt) as grids of its answer range; an unknown task or test case throws TaskViewError. */
  testCaseGrid?(runDir: string, task: string, testCase: number, opts?: { epoch?: number }): Promise<TestCaseGrid>;
  /** Benchmarks whose outputs are workbooks: where an attempt's (`<id>` or `<id>@<epoch>`) output for a test case is written (it may not exist). */
  outputWorkbook?(run: { dir: string; manifest: RunManifest }, attempt: string, testCase: number): string;
  /** The floor and unreachable test cases over the given attempts, from what is recorded now (a run in progress has no summary yet). */
  scoringFacts?(
    runDir: string,
    attempts: { taskKey: string; key: string }[],
  ): Promise<Pick<RunSummary, 'floor' | 'unreachable'>>;
  /** Benchmarks whose answers are judged: the workflow type that judges recorded answers again (input: `RejudgeInput`) and the tasks it would judge. */
  rejudge?: {
    workflow: string;
    /** Tasks with a recorded answer whose judgment is missing or unparseable (`all`: every answered task). */
    tasksToRejudge(runDir: string, all: boolean): Promise<string[]>;
    /**
     * What a rejudge asked for now (with rejudge's `--judge-model`, if any) judges with, as the benchmark describes its
     * judge: kept in the rejudge's started record (lib/runStore/rejudgeRecord.ts).
     */
    requestedJudge(request: { config: Config; manifest: RunManifest; judgeModel?: string }): unknown;
    /** The judge settings the task's judgment records; undefined where it was judged without a model call. */
    judgedWith(runDir: string, taskId: string): Promise<unknown>;
  };
  /** report.md, report.html and what else the benchmark reports (transcripts, an Inspect log); `compareDir`: a baseline run, where the benchmark compares. */
  writeReport(opts: { runDir: string; compareDir?: string; outDir?: string }): Promise<WrittenReport>;
}

/** A dataset folder that is no known benchmark, or an unknown benchmark/edition name (exit code 4, like any dataset error). */
export class BenchmarkError extends DatasetError {
  override name = 'BenchmarkError';
}
