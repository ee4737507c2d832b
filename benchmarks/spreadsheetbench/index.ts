import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathExists } from '../../lib/runStore/files';
import { readDatasetIndex, selectSheetTasks, verifiedTestCase, type SheetTask } from './dataset';
import { taskKey } from '../../lib/runStore/taskRecord';
import { isSpreadsheetAgent, OUTPUT_SETTINGS, SPREADSHEET_AGENTS } from './agentSettings';
import { OFFICIAL_PROMPT_VERSION } from './agents/prompts/spreadsheetbench';
import { SHEETCOPILOT_PROMPT_VERSION } from './agents/sheetcopilot/prompts';
import { CHECKED_VOTE_PROMPT_VERSION } from './agents/checkedVote/settings';
import type { Benchmark } from '../benchmark';
import { fileVersion } from '../datasetVersion';
import { finalizeSpreadsheetRun } from './finalize';
import { writeReport } from './report/writeReport';
import { spreadsheetSummaryLines } from './summaryLines';
import { knownBadExclusion } from './knownBad';
import { spreadsheetTaskView } from './report/taskView';
import { testCaseGrid } from './grid/testCaseGrid';
import { OfficialFiles } from './layout';
import { scoringFacts } from './scoringFacts';

export const SPREADSHEETBENCH_EDITIONS = ['912_v0.1', 'sample_data_200', 'verified_400'] as const;

/** SpreadsheetBench: dataset.json + spreadsheet/<id>/, three test cases a task (Verified: one, with its own file names). */
export const spreadsheetBench: Benchmark<SheetTask> = {
  name: 'spreadsheetbench',
  title: 'SpreadsheetBench',
  editions: SPREADSHEETBENCH_EDITIONS,
  settings: SPREADSHEET_AGENTS,
  taskWorkflow: 'spreadsheetTask',
  recalculates: true,
  repeatsTasks: true,
  batchSettings: ['single'],
  async read(datasetDir) {
    if (!(await pathExists(path.join(datasetDir, 'dataset.json')))) return null;
    if (!(await pathExists(path.join(datasetDir, 'spreadsheet')))) return null;
    const { tasks, version } = await readDatasetIndex(datasetDir);
    const edition = (await isVerifiedLayout(datasetDir, tasks))
      ? 'verified_400'
      : tasks.length === 200
        ? 'sample_data_200'
        : '912_v0.1';
    return { edition, tasks, version };
  },
  select: selectSheetTasks,
  datasetVersion: (datasetDir) => fileVersion(path.join(datasetDir, 'dataset.json')),
  outputSetting(setting) {
    if (!isSpreadsheetAgent(setting))
      throw new Error(`unknown agent ${setting} (known: ${SPREADSHEET_AGENTS.join(', ')})`);
    return OUTPUT_SETTINGS[setting];
  },
  promptVersion: (setting) =>
    setting === 'sheetcopilot'
      ? SHEETCOPILOT_PROMPT_VERSION
      : setting === 'checked_vote'
        ? CHECKED_VOTE_PROMPT_VERSION
        : OFFICIAL_PROMPT_VERSION,
  finalize: finalizeSpreadsheetRun,
  summaryLines: spreadsheetSummaryLines,
  knownBad: knownBadExclusion,
  describeTask: spreadsheetTaskView,
  testCaseGrid,
  outputWorkbook: ({ dir, manifest }, attempt, testCase) =>
    new OfficialFiles(dir, manifest.setting, manifest.llm.model, manifest.epochs ?? 1).outputPath(attempt, testCase),
  scoringFacts,
  writeReport,
};

/** Verified's file names (`init`/`golden`, or bare `initial.xlsx`) in the first task folder that has any workbook. */
async function isVerifiedLayout(datasetDir: string, tasks: SheetTask[]): Promise<boolean> {
  for (const task of tasks.slice(0, 5)) {
    const dir = path.join(datasetDir, task.spreadsheet_path);
    const files = await readdir(dir).catch(() => [] as string[]);
    if (!files.length) continue;
    return (await verifiedTestCase(dir, taskKey(task.id))) !== null;
  }
  return false;
}
