/**
 * SpreadsheetBench 2 in the benchmark registry: its folders are detected and read (one category folder or the parent
 * of the four), and `sheetbench eval` scores outputs exactly as evaluation.py. A run's results are scored
 * (`scoreV2Attempt`), finalized (official result file per category, summary with per-category figures), shown and
 * reported. Starting a run needs the paper's scaffold (issue 30 §3), which does not exist yet: selecting tasks, output
 * settings and prompts refuse with a message saying so.
 */
import path from 'node:path';
import { contentVersion } from '../datasetVersion';
import { readIndexFile } from '../datasetFile';
import { BenchmarkError, type Benchmark } from '../benchmark';
import { loadV2Dataset, v2CategoryFolders, type V2Task } from './dataset';
import { finalizeV2Run } from './run/finalize';
import { V2RunFiles } from './run/files';
import { v2SummaryLines } from './report/summaryLines';
import { v2TaskView } from './report/taskView';
import { writeV2Report } from './report/writeReport';

export { loadV2Dataset, v2CategoryFolders, v2TaskProblems, V2_CATEGORIES, type V2Task } from './dataset';
export { evaluateV2Outputs, type V2Evaluation } from './evaluate';
export { RecalculatedCopies, RecalculationError, defaultRecalculatedDir } from './recalculatedCopies';
export { v2ResultJson, type V2Result, type V2Score, type V2TaskFiles } from './scoring/scoreTask';
export { scoreV2Attempt, type ScoreAttemptInput, type V2Scored } from './run/scoreAttempt';
export { V2RunFiles, v2Run, type V2Run } from './run/files';
export { v2TaskResultSchema, type V2TaskResult, type V2Figures } from './run/taskResult';
export { v2TaskSchema } from './dataset';

export const SPREADSHEETBENCH2_EDITIONS = ['v2'] as const;

const notRunnable = (what: string) =>
  new BenchmarkError(
    `SpreadsheetBench 2 ${what}: runs are not available yet (the paper's scaffold, issue 30 §3, is not built); score outputs with \`sheetbench eval\``,
  );

/** The content version: every category's dataset.json, in category order. */
async function datasetVersion(datasetDir: string): Promise<string> {
  const folders = (await v2CategoryFolders(datasetDir)) ?? [];
  const parts = await Promise.all(folders.map((dir) => readIndexFile(path.join(dir, 'dataset.json'))));
  return contentVersion(Buffer.concat(parts));
}

export const spreadsheetBench2: Benchmark<V2Task> = {
  name: 'spreadsheetbench2',
  title: 'SpreadsheetBench 2',
  editions: SPREADSHEETBENCH2_EDITIONS,
  settings: [],
  taskWorkflow: 'spreadsheetBench2Task',
  recalculates: true,
  repeatsTasks: false,
  async read(datasetDir) {
    const tasks = await loadV2Dataset(datasetDir);
    if (!tasks) return null;
    return { edition: 'v2', tasks, version: await datasetVersion(datasetDir) };
  },
  select() {
    throw notRunnable('selecting tasks for a run');
  },
  datasetVersion,
  outputSetting() {
    throw notRunnable('output settings');
  },
  promptVersion() {
    throw notRunnable('prompts');
  },
  finalize: finalizeV2Run,
  summaryLines: v2SummaryLines,
  describeTask: v2TaskView,
  outputWorkbook: ({ dir, manifest }, attempt) =>
    new V2RunFiles(dir, manifest.setting, manifest.llm.model).outputPath(attempt),
  writeReport: writeV2Report,
};
