import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { promptField } from './scriptedSolutions';

/** A model reply whose code copies the task's input to its output path: a wrong but harmless answer for any task. */
export function copyInputReply(request: ScriptedRequest): string {
  const input = promptField(request, 'spreadsheet_path');
  const output = promptField(request, 'output_path');
  return `\`\`\`python\nimport shutil\nshutil.copy('${input}', '${output}')\n\`\`\``;
}
