/**
 * The settings a Visualization judgment is made with, recorded so that runs judged differently are told apart: in
 * run.json (`judge`, from the config when the run is created) and in each chart judgment (what the worker judged with).
 * The endpoint is recorded by its host only (never a path, a query or credentials, and never the key), the prompt by
 * our version of it, the rules by the release's commit they were read at.
 */
import { z } from 'zod';
import type { VisionJudgeConfig } from '../../../config/schema';

/** Our judge prompt (checklistJudge.ts): bump when its wording or the request's shape changes. */
export const JUDGE_PROMPT_VERSION = 'sb2-checklist-judge-v1';
/** RUCKBReasoning/SpreadsheetBench-2's evaluation/run_visual_vlm_checklist_eval.py, read at this commit. */
export const JUDGE_RULES_COMMIT = 'd83edf9';

export const v2JudgeSettingsSchema = z.object({
  model: z.string(),
  /** The endpoint's host (`open.bigmodel.cn`); null when no judge is configured (its tasks are left unjudged). */
  baseUrlHost: z.string().nullable(),
  promptVersion: z.string(),
  rulesCommit: z.string(),
  temperature: z.number(),
  maxTokens: z.number(),
});
export type V2JudgeSettings = z.infer<typeof v2JudgeSettingsSchema>;

/** The host of a base URL, nothing else of it; an unset or unparseable one is null. */
export function hostOf(baseUrl: string | undefined): string | null {
  if (!baseUrl) return null;
  try {
    return new URL(baseUrl).host || null;
  } catch {
    return null;
  }
}

/** The settings a judgment with this config (and rejudge's `--judge-model`) is made with. */
export function v2JudgeSettingsOf(config: VisionJudgeConfig, judgeModel?: string): V2JudgeSettings {
  return {
    model: judgeModel ?? config.model,
    baseUrlHost: hostOf(config.baseUrl),
    promptVersion: JUDGE_PROMPT_VERSION,
    rulesCommit: JUDGE_RULES_COMMIT,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
  };
}

/** The settings as the fields `show` and `compare` print and compare, in order. */
export function v2JudgeSettingsFields(s: V2JudgeSettings): Record<string, string> {
  return {
    model: s.model,
    host: s.baseUrlHost ?? 'none configured',
    prompt: s.promptVersion,
    rules: s.rulesCommit,
    temperature: String(s.temperature),
    maxTokens: String(s.maxTokens),
  };
}
