import { createHash, randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadDataset, selectTasks, type SheetTask } from '../dataset/spreadsheetbench';
import { writeJsonAtomic } from '../artifacts/files';
import { experimentHash, recordedDatasetDir, writeManifest, type RunManifest } from './manifest';
import type { Config } from '../config/schema';
import { OFFICIAL_PROMPT_VERSION } from '../agents/prompts/spreadsheetbench';
import { SHEETCOPILOT_PROMPT_VERSION } from '../agents/sheetcopilot/prompts';
import { AGENT_SETTINGS } from '../workflows/agents';
import { usesLocalModel } from '../llm';

/** The embedded CPU model writes a few tokens a second: cap its replies so the default job ends in minutes. */
const LOCAL_MODEL_MAX_TOKENS = 256;

export interface CreateRunOptions {
  datasetDir: string;
  agent: string;
  runId?: string;
  runDir?: string;
  taskIds?: string[];
  limit?: number;
}

/** Writes a new run folder: run.json (the experiment) and tasks.json (the selected task records). */
export async function createRun(config: Config, opts: CreateRunOptions): Promise<{ manifest: RunManifest; runDir: string; tasks: SheetTask[] }> {
  const datasetDir = path.resolve(opts.datasetDir);
  const all = await loadDataset(datasetDir);
  const tasks = selectTasks(all, { ids: opts.taskIds, limit: opts.limit });
  const runId = opts.runId ?? `run-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomUUID().slice(0, 6)}`;
  const runDir = path.resolve(opts.runDir ?? path.join('runs', runId));
  const setting = AGENT_SETTINGS[opts.agent];
  if (!setting) throw new Error(`unknown agent ${opts.agent} (known: ${Object.keys(AGENT_SETTINGS).join(', ')})`);
  const base = {
    benchmark: 'spreadsheetbench' as const,
    agent: opts.agent,
    setting,
    datasetDir: recordedDatasetDir(runDir, datasetDir, config.artifacts.root),
    datasetVersion: await datasetVersion(datasetDir),
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
      promptVersion: promptVersionOf(opts.agent),
    },
  };
  const manifest: RunManifest = { ...base, runId, createdAt: new Date().toISOString(), experimentHash: experimentHash(base) };
  await writeManifest(runDir, manifest);
  await writeJsonAtomic(path.join(runDir, 'tasks.json'), tasks);
  return { manifest: { ...manifest, datasetDir }, runDir, tasks };
}

export function promptVersionOf(agent: string): string {
  return agent === 'sheetcopilot' ? SHEETCOPILOT_PROMPT_VERSION : OFFICIAL_PROMPT_VERSION;
}

/** Content hash and size of dataset.json: identifies the dataset version. */
export async function datasetVersion(datasetDir: string): Promise<string> {
  const file = path.join(datasetDir, 'dataset.json');
  const [text, info] = await Promise.all([readFile(file), stat(file)]);
  return `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}:${info.size}`;
}
