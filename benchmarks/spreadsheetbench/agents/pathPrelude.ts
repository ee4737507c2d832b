import type { ModelPaths } from './officialPaths';

/**
 * Predefined `input_path` / `output_path` globals for agents whose prompts tell the model to use them (non-official
 * prompt versions only; the official prompts stay verbatim). The prelude uses the test-case-1 model paths, so the
 * execution activity's literal binding rewrites them to test case N and to the sandbox work dir like any other code.
 */
export function pathVariablesPrelude(paths: ModelPaths): string {
  return `input_path = ${JSON.stringify(paths.input)}\noutput_path = ${JSON.stringify(paths.output)}\n`;
}

/**
 * SheetCopilot stage 4 of the reference fork (lowl6/SpreadsheetBench): the model may write `{file_path}` /
 * `{output_path}` placeholders; they name the globals above.
 */
export function substitutePathPlaceholders(code: string): string {
  return code
    .replaceAll("'{file_path}'", 'input_path')
    .replaceAll('"{file_path}"', 'input_path')
    .replaceAll("'{output_path}'", 'output_path')
    .replaceAll('"{output_path}"', 'output_path');
}
