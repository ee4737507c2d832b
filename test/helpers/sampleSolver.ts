/**
 * A scripted model that solves the bundled sample tasks (data/sample) with real openpyxl code written from their
 * instructions, and can be told to get exactly one known cell wrong: 1001 → Sales!B7, 2001-1 → Orders!C4,
 * 1002 → Data!E2 (off by one). It decides from the call key (X-Sheetbench-Call), never from the prompt, so the
 * attempts of a run with repeats get byte-identical prompts and still differ.
 */
import type { ScriptedRequest, ScriptRule } from '../../lib/scriptedLlm';
import { promptField } from './scriptedSolutions';

export const WRONG_CELL: Record<string, string> = { '1001': 'Sales!B7', '2001-1': 'Orders!C4', '1002': 'Data!E2' };

function code(task: string, input: string, output: string, wrong: boolean): string {
  const off = wrong ? ' + 1' : '';
  switch (task) {
    case '1001':
      return `import openpyxl
wb = openpyxl.load_workbook('${input}')
ws = wb['Sales']
ws['A7'] = 'Total'
ws['B7'] = sum(ws.cell(row=r, column=2).value for r in range(2, 7))${off}
wb.save('${output}')`;
    case '2001-1':
      return `import openpyxl
wb = openpyxl.load_workbook('${input}')
ws = wb['Orders']
ws['C1'] = 'Total'
for r in range(2, 7):
    ws.cell(row=r, column=3, value=ws.cell(row=r, column=1).value * ws.cell(row=r, column=2).value${wrong ? ' + (1 if r == 4 else 0)' : ''})
wb.save('${output}')`;
    case '1002':
      return `import openpyxl
wb = openpyxl.load_workbook('${input}')
ws = wb['Data']
region = ws['D2'].value
ws['E2'] = sum(1 for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=1).value == region)${off}
wb.save('${output}')`;
    default:
      throw new Error(`the sample solver does not know task ${task}`);
  }
}

/** The sample task a request is about, from its input path (`…/spreadsheet/<id>/1_<id>_input.xlsx`). */
function taskOf(request: ScriptedRequest): string {
  const m = /spreadsheet\/([^/]+)\//.exec(promptField(request, 'spreadsheet_path'));
  if (!m) throw new Error('no sample task in the prompt');
  return m[1];
}

/** A rule answering every sample prompt; `wrong(callKey, task)` says when to get the task's known cell wrong. */
export function sampleSolver(wrong: (callKey: string, task: string) => boolean): ScriptRule {
  return {
    name: 'sample-solver',
    match: { anyMessage: /spreadsheet\/(1001|2001-1|1002)\// },
    reply: (request) => {
      const task = taskOf(request);
      const body = code(
        task,
        promptField(request, 'spreadsheet_path'),
        promptField(request, 'output_path'),
        wrong(request.callKey ?? '', task),
      );
      return `Here is the solution.\n\`\`\`python\n${body}\n\`\`\`\n`;
    },
  };
}
