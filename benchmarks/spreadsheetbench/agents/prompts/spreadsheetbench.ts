import type { SheetTask } from '../../dataset';
import { renderTemplate, type TemplateId } from './render';
import type { ModelPaths } from '../officialPaths';

/** The prompt kinds of the official settings; each maps to a versioned template. */
export const PROMPT_TEMPLATES = {
  single: 'single.v1',
  react_no_preview: 'react_no_preview.v1',
  react_preview: 'react_preview.v1',
} as const satisfies Record<string, TemplateId>;
export type OfficialPromptKind = keyof typeof PROMPT_TEMPLATES;

export const OFFICIAL_PROMPT_VERSION = 'official-v1';

export function usesPreview(kind: OfficialPromptKind): boolean {
  return kind !== 'react_no_preview';
}

export function renderOfficialPrompt(
  kind: OfficialPromptKind,
  task: SheetTask,
  paths: ModelPaths,
  extras: { preview?: string; maxTurns?: number },
): string {
  return renderTemplate(PROMPT_TEMPLATES[kind], {
    instruction: task.instruction,
    spreadsheet_path: paths.input,
    spreadsheet_content: extras.preview ?? '',
    instruction_type: task.instruction_type,
    answer_position: task.answer_position,
    output_path: paths.output,
    max_turn_num: extras.maxTurns ?? 5,
  });
}
