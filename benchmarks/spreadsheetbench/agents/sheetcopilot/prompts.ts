import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { builtinTemplatePath, fillTemplate, type TemplateId } from '../prompts/render';
import { readTextIfPresent } from '../../../../lib/json';

/** The SheetCopilot prompt of each stage; a new wording is a new version file, and the run records which one it used. */
export const COPILOT_TEMPLATES = {
  summary: 'copilot_summary.v1',
  understand: 'copilot_understand.v1',
  plan: 'copilot_plan.v1',
  implement: 'copilot_implement.v1',
  validateSuccess: 'copilot_validate_success.v1',
  validateFailure: 'copilot_validate_failure.v1',
  revise: 'copilot_revise.v1',
} as const satisfies Record<string, TemplateId>;
export type CopilotPrompt = keyof typeof COPILOT_TEMPLATES;

export const SHEETCOPILOT_PROMPT_VERSION = 'sheetcopilot-v1';

/** Which template text a stage used: the built-in file or one from an override dir, with its content hash. */
export interface PromptRecord {
  template: string;
  source: string;
  sha256: string;
}

/**
 * Renders a stage prompt. A file `<template>.txt` in `overrideDir` (config / `rerun --prompts`) replaces the built-in
 * one, so an operator can change one stage's prompt and re-run from that stage.
 */
export async function renderCopilotPrompt(
  prompt: CopilotPrompt,
  vars: Record<string, string | number>,
  overrideDir?: string,
): Promise<{ text: string; record: PromptRecord }> {
  const id = COPILOT_TEMPLATES[prompt];
  const { text: template, source } = await templateText(id, overrideDir);
  return {
    text: fillTemplate(id, template, vars),
    record: { template: id, source, sha256: createHash('sha256').update(template).digest('hex').slice(0, 16) },
  };
}

async function templateText(id: TemplateId, overrideDir?: string): Promise<{ text: string; source: string }> {
  if (overrideDir) {
    const file = path.join(overrideDir, `${id}.txt`);
    const text = await readTextIfPresent(file); // no override for this template: the built-in one; unreadable throws
    if (text !== undefined) return { text, source: file };
  }
  return { text: await readFile(builtinTemplatePath(id), 'utf8'), source: 'builtin' };
}
