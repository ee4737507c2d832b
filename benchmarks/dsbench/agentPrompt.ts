import { GUESS_SENTENCE } from './prompt';

/**
 * The agent setting's first message (the code-interpreter runner): the introduction and the question as the model-only
 * prompt has them, the workbooks as files to open with code instead of inlined text, how to run code, and the
 * original's extra sentence about guessing on multiple-choice questions.
 */
export function agentPrompt(parts: { introduction: string; question: string; workbooks: string[] }): string {
  const files = parts.workbooks.length
    ? `The workbook files are in the current working directory: ${parts.workbooks.join(', ')}. `
    : 'No workbook comes with this question. ';
  return [
    `The introduction is detailed as follows. \n ${parts.introduction} \n`,
    `The questions are detailed as follows. \n ${parts.question}\n\n`,
    files,
    'You can run Python (pandas and openpyxl are installed): reply with one ```python code block and you will be shown its output. ',
    'When you know the answer, reply with the answer and no code block.\n',
    GUESS_SENTENCE,
  ].join('');
}
