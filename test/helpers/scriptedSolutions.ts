import type { ScriptRule, ScriptedRequest } from '../../lib/scriptedLlm';

/** The `### output_path` / `### spreadsheet_path` values of an official prompt, as a model would read them. */
export function promptField(request: ScriptedRequest, field: string): string {
  const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const m = prompt.match(new RegExp(`### ${field}\\n(.+)\\n`));
  if (!m) throw new Error(`prompt has no ${field} field`);
  return m[1];
}

function solution(body: (input: string, output: string) => string) {
  return (request: ScriptedRequest) => {
    const input = promptField(request, 'spreadsheet_path');
    const output = promptField(request, 'output_path');
    return `Here is the solution.\n\`\`\`python\n${body(input, output)}\n\`\`\`\n`;
  };
}

/** Real solutions to three dev20 tasks (written from the instructions, never from the answer files). */
export const DEV20_SOLUTIONS: Record<string, ScriptRule> = {
  '39604': {
    name: '39604',
    match: { anyMessage: /spreadsheet\/39604\// },
    reply: solution(
      (input, output) => `import openpyxl
wb = openpyxl.load_workbook('${input}')
ws = wb['before']
ws['C4'] = '=MAX(0,IF((B3*1000)<22000,B4-20,B4-30))'
wb.save('${output}')`,
    ),
  },
  '79-7': {
    name: '79-7',
    match: { anyMessage: /spreadsheet\/79-7\// },
    reply: solution(
      (input, output) => `import openpyxl
wb = openpyxl.load_workbook('${input}')
for ws in wb.worksheets:
    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                cell.value = cell.value.replace('"', '')
wb.save('${output}')`,
    ),
  },
  /** A wrong solution: lists what it can see beside its input, then raises before saving, so no output exists. */
  '599-9': {
    name: '599-9',
    match: { anyMessage: /spreadsheet\/599-9\// },
    reply: solution(
      (input) => `import os, openpyxl
print('VISIBLE', sorted(os.listdir(os.path.dirname('${input}'))))
wb = openpyxl.load_workbook('${input}')
raise ValueError('model gave up')`,
    ),
  },
};
