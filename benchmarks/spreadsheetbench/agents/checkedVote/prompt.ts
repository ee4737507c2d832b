import type { SheetTask } from '../../dataset';
import { parseAnswerPosition } from '../../scoring/answerPosition';
import { PYTHON_EXAMPLE } from './examples';

/**
 * checked_vote's prompts put all static text first: the system prompt holds the role, how to reply (a Python
 * solve(wb), or one formula) and worked examples, the same for every task of a kind; the user message holds only the
 * task (workbook view, instruction, answer region) and a one-line reminder of the reply's form. A local model then
 * evaluates the static prefix once and reuses its KV cache across candidates and across tasks.
 */
export const SYSTEM_PROMPT = `You are an expert in Excel and in Python with openpyxl. You solve spreadsheet tasks from an Excel forum. Each task gives the input workbook (cells as address:value, formulas as =formula -> cached value), the task and the answer region (the cells that are checked).`;

/** How a Python candidate answers: the harness's frame and its rules. */
export const PYTHON_INSTRUCTIONS = `# How to reply: one Python function

\`\`\`python
def solve(wb):
    # wb: an openpyxl Workbook already opened from the task's input file (formulas kept).
    # Change wb in place: write the answer into the answer cells. The harness saves it.
    ...
\`\`\`

Rules:
- Never open, load or save a file and never write a path: the harness opens the input, calls solve(wb) and saves the result.
- The same function runs on several input workbooks with the same layout but different data: compute from the cells, never copy the values you see into the code.
- Fill every cell of the answer region that should hold a value. Prefer plain values computed in Python (numbers as numbers, text as text). Write an Excel formula only when the task asks for one: a string starting with "=", e.g. ws["C4"] = "=SUM(A2:A9)".
- Find sheets by name: ws = wb["Sheet name"]. Address cells by column letter and row as the view shows them: ws[f"K{row}"].value reads, ws[f"K{row}"] = value writes (letters, not column numbers; get_column_letter(1) is "A", for a loop over columns); an empty cell is None. Tables do not always start at A1 and headers are not always in row 1: use the header rows and table regions of the view.
- Read and write values: ws["A2"].value is the value (text, number, datetime.datetime or None), never the cell itself. ws["A2:C9"] and ws.iter_rows() give tuples of cells, one tuple per row: loop over row numbers instead, for row in range(2, ws.max_row + 1).
- Dates are datetime.datetime values. Read a date written as text with datetime.datetime.strptime and a format matching the text to its last character (the date of "2021-01-18T20:57:45Z" is datetime.datetime.strptime(text[:10], "%Y-%m-%d")); test isinstance(value, str) first.
- Never write explanations, placeholders or error text into cells. VBA does not run here: do the work in Python.
- You may import re, math, datetime, collections and openpyxl.

Reply with one \`\`\`python block that defines solve(wb) (helper functions are allowed) and nothing else.`;

/** The task's context, the shared part of every candidate's prompt: the workbook, the instruction, the answer region. */
export function taskContext(task: SheetTask, view: string): string {
  return [
    '# The input workbook (test case 1; cells as address:value, formulas as =formula -> cached value)',
    view.trim(),
    '',
    `# Task (${task.instruction_type})`,
    task.instruction.trim(),
    '',
    `# Answer region: ${task.answer_position}`,
    task.instruction_type.startsWith('Sheet')
      ? 'These cells are compared with the expected result: they must hold exactly the final table.'
      : 'These cells are compared with the expected result.',
  ].join('\n');
}

/** A Python candidate's system prompt: the role, how to reply, a worked example (static: the same for every task). */
export const PYTHON_SYSTEM_PROMPT = [SYSTEM_PROMPT, PYTHON_INSTRUCTIONS, PYTHON_EXAMPLE].join('\n\n');

/**
 * A Python candidate's user message: the task's context, then the frame to start from, opened on the answer region's
 * sheet (checked-vote-v4's 1.5B wrote into another sheet, copied from the worked example, and left the answer cells as
 * they were), and the reminder of the reply's form.
 */
export function taskPrompt(task: SheetTask, view: string): string {
  return [
    taskContext(task, view),
    '',
    `Start from this frame (the answer region ${task.answer_position} is on this sheet):`,
    '```python',
    'def solve(wb):',
    `    ws = ${answerSheetExpression(task.answer_position)}`,
    `    # write the answer into ${regionCellsText(task.answer_position)}`,
    '```',
    'Write the complete solve(wb) in one ```python block.',
  ].join('\n');
}

/** The answer region's cells without their sheet ("K2:K19"), as the frame's comment names them. */
function regionCellsText(answerPosition: string): string {
  return parseAnswerPosition(answerPosition, 'strict')
    .pieces.map((p) => p.range)
    .join(', ');
}

/** `wb["Name"]` for the answer region's (first) sheet, or the first sheet when the position names none. */
function answerSheetExpression(answerPosition: string): string {
  const sheet = parseAnswerPosition(answerPosition, 'strict').pieces[0]?.sheet;
  return sheet ? `wb[${JSON.stringify(sheet)}]` : 'wb.worksheets[0]';
}
