import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathExists } from '../../lib/runStore/files';
import { PATTERNS } from '../../contracts/conversation';
import { selectTasks } from '../../lib/runStore/taskRecord';
import { loadAnalysisSuite, type AnalysisTask } from './dataset';
import { BenchmarkError, type Benchmark } from '../benchmark';
import { finalizeAnalysisRun } from './finalize';
import { writeAnalysisReport } from './report';
import { analysisSettingsFrom } from './settings';
import { analysisSummaryLines } from './summaryLines';

/** Bump when the way a request reaches the conversation (text, files note) changes. */
const PROMPT_VERSION = 'analysis-request-v1';

/**
 * The analysis task suite (data/analysis): one conversation per request under one pattern (`--agent`, default auto),
 * scored by benchmarks/analysis/score.ts against answers.json, which the agent never sees.
 */
export const analysisBenchmark: Benchmark<AnalysisTask> = {
  name: 'analysis',
  title: 'Analysis task suite',
  editions: ['v1'],
  settings: [...PATTERNS],
  taskWorkflow: 'analysisTask',
  recalculates: false,
  repeatsTasks: false,
  async read(datasetDir) {
    for (const name of ['tasks.json', 'answers.json', 'files'])
      if (!(await pathExists(path.join(datasetDir, name)))) return null;
    const suite = await loadAnalysisSuite(datasetDir).catch((err: Error) => {
      throw new BenchmarkError(`${datasetDir}: ${err.message}`);
    });
    return { edition: suite.edition, tasks: suite.tasks, version: await suiteVersion(datasetDir) };
  },
  select: (tasks, select) =>
    selectTasks(tasks, select, (missing) => `no request ${missing.join(', ')} in the analysis suite`),
  datasetVersion: suiteVersion,
  outputSetting: (setting) => setting,
  promptVersion: () => PROMPT_VERSION,
  settingsFrom: async (config) => analysisSettingsFrom(config),
  finalize: finalizeAnalysisRun,
  summaryLines: analysisSummaryLines,
  writeReport: writeAnalysisReport,
};

/** Content hash of the requests, the answers and every data file: any change is a new dataset version. */
async function suiteVersion(datasetDir: string): Promise<string> {
  const hash = createHash('sha256');
  const filesDir = path.join(datasetDir, 'files');
  const files = ['tasks.json', 'answers.json', ...(await readdir(filesDir)).sort().map((f) => path.join('files', f))];
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(await readFile(path.join(datasetDir, f)))
      .update('\0');
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}
