import path from 'node:path';
import { pathExists } from '../../lib/runStore/files';
import type { Benchmark } from '../benchmark';
import { fileVersion } from '../datasetVersion';
import { z } from 'zod';
import { dsbenchQuestionSchema, readQuestions, selectQuestions, type DsbenchQuestion } from './dataset';
import { finalizeDsbenchRun } from './finalize';
import { writeDsbenchReport } from './report';
import { dsbenchSettingsFrom } from './settings';
import { dsbenchSummaryLines } from './summaryLines';
import { dsbenchTaskView } from './taskView';
import { dsbenchJudgedWith, dsbenchRequestedJudge, questionsToRejudge } from './rejudge';
import { readRequiredJson } from '../../lib/json';
import { RunLayout } from '../../lib/runStore/runLayout';

/** Prompt versions: the original runners' prompts (bump when our rendering of them changes). */
const PROMPT_VERSIONS: Record<string, string> = { 'model-only': 'dsbench-model-only-v1', agent: 'dsbench-agent-v1' };

/** DSBench data analysis: data.json (JSON Lines) + data/<competition>/, one task per question, judged by an LLM. */
export const dsBench: Benchmark<DsbenchQuestion> = {
  name: 'dsbench',
  title: 'DSBench data analysis',
  editions: ['data_analysis'],
  settings: ['model-only', 'agent'],
  taskWorkflow: 'dsbenchTask',
  recalculates: false,
  repeatsTasks: false,
  batchSettings: ['model-only'],
  async read(datasetDir) {
    if (!(await pathExists(path.join(datasetDir, 'data.json')))) return null;
    const { questions, version } = await readQuestions(datasetDir);
    return { edition: 'data_analysis', tasks: questions, version };
  },
  select: selectQuestions,
  datasetVersion: (datasetDir) => fileVersion(path.join(datasetDir, 'data.json')),
  outputSetting: (setting) => setting,
  promptVersion: (setting) => PROMPT_VERSIONS[setting] ?? 'unknown',
  settingsFrom: async (config) => dsbenchSettingsFrom(config),
  finalize: finalizeDsbenchRun,
  summaryLines: dsbenchSummaryLines,
  describeTask: (runDir, task) => dsbenchTaskView(runDir, task),
  writeReport: writeDsbenchReport,
  rejudge: {
    workflow: 'dsbenchRejudge',
    tasksToRejudge: async (runDir, all) =>
      questionsToRejudge(
        runDir,
        await readRequiredJson(new RunLayout(runDir).taskListPath, z.array(dsbenchQuestionSchema)),
        all,
      ),
    requestedJudge: dsbenchRequestedJudge,
    judgedWith: dsbenchJudgedWith,
  },
};
