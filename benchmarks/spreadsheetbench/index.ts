import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathExists } from '../../lib/runStore/files';
import { loadDataset, selectTasks, verifiedTestCase, taskKey, type SheetTask } from './dataset';
import { AGENT_SETTINGS } from '../../workflows/spreadsheetbench/agents';
import { OFFICIAL_PROMPT_VERSION } from './agents/prompts/spreadsheetbench';
import { SHEETCOPILOT_PROMPT_VERSION } from './agents/sheetcopilot/prompts';
import type { Benchmark } from '../benchmark';
import { fileVersion } from '../datasetVersion';
import { finalizeSpreadsheetRun } from './finalize';

export const SPREADSHEETBENCH_EDITIONS = ['912_v0.1', 'sample_data_200', 'verified_400'] as const;

/** SpreadsheetBench: dataset.json + spreadsheet/<id>/, three test cases a task (Verified: one, with its own file names). */
export const spreadsheetBench: Benchmark<SheetTask> = {
  name: 'spreadsheetbench',
  title: 'SpreadsheetBench',
  editions: SPREADSHEETBENCH_EDITIONS,
  settings: Object.keys(AGENT_SETTINGS),
  taskWorkflow: 'spreadsheetTask',
  async detect(datasetDir) {
    if (!(await pathExists(path.join(datasetDir, 'dataset.json')))) return null;
    if (!(await pathExists(path.join(datasetDir, 'spreadsheet')))) return null;
    const tasks = await loadDataset(datasetDir);
    if (await isVerifiedLayout(datasetDir, tasks)) return 'verified_400';
    return tasks.length === 200 ? 'sample_data_200' : '912_v0.1';
  },
  async loadTasks(datasetDir, _edition, select) {
    const tasks = selectTasks(await loadDataset(datasetDir), select);
    return { tasks, datasetVersion: await this.datasetVersion(datasetDir) };
  },
  datasetVersion: (datasetDir) => fileVersion(path.join(datasetDir, 'dataset.json')),
  outputSetting(setting) {
    const out = AGENT_SETTINGS[setting];
    if (!out) throw new Error(`unknown agent ${setting} (known: ${Object.keys(AGENT_SETTINGS).join(', ')})`);
    return out;
  },
  promptVersion: (setting) => (setting === 'sheetcopilot' ? SHEETCOPILOT_PROMPT_VERSION : OFFICIAL_PROMPT_VERSION),
  finalize: finalizeSpreadsheetRun,
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
