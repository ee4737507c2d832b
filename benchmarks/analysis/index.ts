import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { pathExists } from '../../lib/runStore/files';
import { PATTERNS } from '../../analysis/conversation/types';
import { DatasetError } from '../spreadsheetbench/dataset';
import { loadAnalysisSuite, type AnalysisTask } from './dataset';
import { BenchmarkError, type Benchmark, type SelectOptions } from '../benchmark';
import { finalizeAnalysisRun } from './finalize';
import { writeAnalysisReport } from './report';
import { analysisSettingsFrom } from './settings';

/** Bump when the way a request reaches the conversation (text, files note) changes. */
const PROMPT_VERSION = 'analysis-request-v1';

type AnalysisTaskRecord = AnalysisTask & { id: string };

/**
 * The analysis task suite (data/analysis): one conversation per request under one pattern (`--agent`, default auto),
 * scored by analysisSuite/score.ts against answers.json, which the agent never sees.
 */
export const analysisBenchmark: Benchmark<AnalysisTaskRecord> = {
  name: 'analysis',
  title: 'Analysis task suite',
  editions: ['v1'],
  settings: [...PATTERNS],
  taskWorkflow: 'analysisTask',
  async detect(datasetDir) {
    for (const name of ['tasks.json', 'answers.json', 'files']) if (!(await pathExists(path.join(datasetDir, name)))) return null;
    const index = z.object({ version: z.string().optional(), tasks: z.array(z.object({ level: z.number() })) }).safeParse(await readJsonFile(path.join(datasetDir, 'tasks.json')));
    if (!index.success) return null;
    return `v${index.data.version ?? '1'}`;
  },
  async loadTasks(datasetDir, _edition, select) {
    const suite = await loadAnalysisSuite(datasetDir).catch((err: Error) => {
      throw new BenchmarkError(`${datasetDir}: ${err.message}`);
    });
    return { tasks: selectRequests(suite.tasks, select), datasetVersion: await this.datasetVersion(datasetDir) };
  },
  datasetVersion: suiteVersion,
  outputSetting: (setting) => setting,
  promptVersion: () => PROMPT_VERSION,
  settingsFrom: async (config) => analysisSettingsFrom(config),
  finalize: finalizeAnalysisRun,
  writeReport: writeAnalysisReport,
};

function selectRequests(tasks: AnalysisTask[], select: SelectOptions): AnalysisTask[] {
  let chosen = tasks;
  if (select.ids?.length) {
    const known = new Set(tasks.map((t) => t.id));
    const missing = select.ids.filter((id) => !known.has(id));
    if (missing.length) throw new DatasetError(`no request ${missing.join(', ')} in the analysis suite`);
    const wanted = new Set(select.ids);
    chosen = tasks.filter((t) => wanted.has(t.id));
  }
  return select.limit !== undefined ? chosen.slice(0, select.limit) : chosen;
}

/** Content hash of the requests, the answers and every data file: any change is a new dataset version. */
async function suiteVersion(datasetDir: string): Promise<string> {
  const hash = createHash('sha256');
  const filesDir = path.join(datasetDir, 'files');
  const files = ['tasks.json', 'answers.json', ...(await readdir(filesDir)).sort().map((f) => path.join('files', f))];
  for (const f of files) hash.update(`${f}\0`).update(await readFile(path.join(datasetDir, f))).update('\0');
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}

async function readJsonFile(file: string): Promise<unknown> {
  return readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown, () => undefined).catch(() => undefined);
}
