/**
 * SpreadsheetBench 2 in the benchmark registry: its folders are detected and read (one category folder or the parent
 * of the four), `sheetbench eval` scores outputs exactly as evaluation.py, and `run` runs the paper's scaffold
 * (`--agent swe_agent`: bash, view_xlsx and submit under SWE-agent's rules, scaffold/) or our own agent
 * (`--agent checked_vote`, through checkedVote/adapter.ts) on the recalculated inputs (run/datasetCopies.ts). A run's
 * results are scored (`scoreV2Attempt`), its Visualization tasks' charts judged by a vision model (visualization/;
 * `sheetbench rejudge` judges them again), finalized (official result file per category, summary with per-category
 * figures), shown and
 * reported.
 */
import path from 'node:path';
import { contentVersion } from '../datasetVersion';
import { readIndexFile } from '../datasetFile';
import type { Benchmark } from '../benchmark';
import { loadV2Dataset, v2CategoryFolders, type V2Task } from './dataset';
import { selectTasks } from '../../lib/runStore/taskRecord';
import { finalizeV2Run } from './run/finalize';
import { V2RunFiles } from './run/files';
import { v2SummaryLines } from './report/summaryLines';
import { v2TaskView } from './report/taskView';
import { writeV2Report } from './report/writeReport';
import { v2TasksToRejudge } from './visualization/tasksToRejudge';
import { CHECKED_VOTE, CHECKED_VOTE_V2_PROMPT_VERSION } from './checkedVote/adapter';
import { v2JudgeSettingsOf } from './visualization/judgeSettings';
import { v2RunJudgeSettings } from './visualization/runJudgeSettings';
import { v2JudgedWith, v2RequestedJudge } from './visualization/rejudgeSettings';

export { loadV2Dataset, v2CategoryFolders, v2TaskProblems, V2_CATEGORIES, type V2Task } from './dataset';
export { evaluateV2Outputs, type V2Evaluation } from './evaluate';
export { RecalculatedCopies, RecalculationError, defaultRecalculatedDir } from './recalculatedCopies';
export { v2ResultJson, type V2Result, type V2Score, type V2TaskFiles } from './scoring/scoreTask';
export { scoreV2Attempt, type ScoreAttemptInput, type V2Scored } from './run/scoreAttempt';
export { V2RunFiles, v2Run, type V2Run } from './run/files';
export { v2TaskResultSchema, type V2TaskResult, type V2Figures } from './run/taskResult';
export { v2TaskSchema } from './dataset';

export const SPREADSHEETBENCH2_EDITIONS = ['v2'] as const;

/**
 * The agents a v2 run takes: the paper's scaffold (SWE-agent with its spreadsheet and visualisation configs), and our
 * own agent, checked_vote, through its adapter (checkedVote/adapter.ts).
 */
export const SPREADSHEETBENCH2_SETTINGS = ['swe_agent', CHECKED_VOTE] as const;

/**
 * Prompt versions (run.json; a resume refuses another): the configs and tools of RUCKBReasoning/SpreadsheetBench-2 at
 * 599b24a (scaffold/upstream/). Bump when our rendering of them changes.
 */
const PROMPT_VERSIONS: Record<string, string> = {
  swe_agent: 'sb2-swe-agent-599b24a-v1',
  [CHECKED_VOTE]: CHECKED_VOTE_V2_PROMPT_VERSION,
};

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
  settings: SPREADSHEETBENCH2_SETTINGS,
  taskWorkflow: 'spreadsheetBench2Task',
  recalculates: true,
  repeatsTasks: false,
  async read(datasetDir) {
    const tasks = await loadV2Dataset(datasetDir);
    if (!tasks) return null;
    return { edition: 'v2', tasks, version: await datasetVersion(datasetDir) };
  },
  select: (tasks, select) => selectTasks(tasks, select, (missing) => `unknown task id(s): ${missing.join(', ')}`),
  datasetVersion,
  outputSetting: (setting) => setting,
  promptVersion: (setting) => PROMPT_VERSIONS[setting] ?? 'unknown',
  judgeSettingsFrom: (config) => v2JudgeSettingsOf(config.visionJudge),
  judgeSettings: (runDir) => v2RunJudgeSettings(runDir),
  finalize: finalizeV2Run,
  summaryLines: v2SummaryLines,
  describeTask: v2TaskView,
  outputWorkbook: ({ dir, manifest }, attempt) =>
    new V2RunFiles(dir, manifest.setting, manifest.llm.model).outputPath(attempt),
  writeReport: writeV2Report,
  rejudge: {
    workflow: 'spreadsheetBench2Rejudge',
    tasksToRejudge: v2TasksToRejudge,
    requestedJudge: v2RequestedJudge,
    judgedWith: v2JudgedWith,
  },
};
