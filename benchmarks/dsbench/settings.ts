import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config/schema';
import type { RunManifest } from '../../lib/runStore/manifest';
import { DEFAULT_JUDGE_TEMPLATE, loadJudgeTemplate } from './judge';
import { encodingFor } from './prompt';
import { contextWindowOf } from '../../lib/llm/contextWindows';

/** What defines a DSBench experiment beyond the model: recorded in run.json (`benchmarkSettings`). */
export const dsbenchSettingsSchema = z.object({
  judgeModel: z.string(),
  judgeTemplate: z.string(),
  judgeTemplateVersion: z.string(),
  contextLimit: z.number().int().positive(),
  encoding: z.enum(['cl100k_base', 'o200k_base']),
  attachImage: z.boolean(),
  /** Config `dsbench.maxSteps`, recorded under its older name: run.json's experiment hash and older runs stay valid. */
  agentMaxRounds: z.number().int().positive(),
});
export type DsbenchSettings = z.infer<typeof dsbenchSettingsSchema>;

export async function dsbenchSettingsFrom(config: Config): Promise<DsbenchSettings> {
  const model = config.llm.model;
  const ds = config.dsbench;
  const judgeTemplate = path.resolve(ds.judgeTemplate ?? DEFAULT_JUDGE_TEMPLATE);
  const template = await loadJudgeTemplate(judgeTemplate);
  return {
    judgeModel: ds.judgeModel,
    judgeTemplate,
    judgeTemplateVersion: template.version,
    contextLimit: contextWindowOf(model, config.llm.contextWindows),
    encoding: encodingFor(model, ds.encodings[model]),
    attachImage: ds.attachImage ?? !model.startsWith('gpt-3.5'),
    agentMaxRounds: ds.maxSteps,
  };
}

export function dsbenchSettingsOf(manifest: RunManifest): DsbenchSettings {
  const parsed = dsbenchSettingsSchema.safeParse(manifest.benchmarkSettings);
  if (!parsed.success)
    throw new Error(`run ${manifest.runId} has no valid DSBench settings in run.json: ${parsed.error.message}`);
  return parsed.data;
}
