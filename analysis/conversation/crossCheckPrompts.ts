/**
 * The cross-check's prompts and names (pure: the workflow builds the second program's steps from these). The second
 * program is written in a transcript of its own, under another framing, from the question and the data preview only:
 * it never sees the first program, its output or its answer.
 */

/** The transcript (agent) of the second, independently written program. */
export const SECOND_PROGRAM_AGENT = 'second-program';

/** Whether an agent is the first answer's (every agent of the turn but the second program). */
export function answersTurn(agent: string | undefined): boolean {
  return agent !== SECOND_PROGRAM_AGENT;
}

/** Steps a second program gets after its first until a Python run succeeds (a fix, or the program after a fetch). */
export const SECOND_PROGRAM_FIXES = 2;

export const SECOND_PROGRAM_PROMPT = `You are a careful data engineer who checks results by computing them again from scratch.
Write ONE complete, self-contained Python program that computes the answer to the user's question from the files in
the current folder, and run it with python_execute.
- Load every file you need yourself with pandas; do not rely on variables from earlier code runs.
- Use the exact column names shown below.
- Print only the final result: the value(s) asked for, each with a short label, and nothing else.
- Do not save tables or charts, do not plot.
- The folder has no network access: a file the question gives by URL is in the folder only if it was downloaded.`;

/**
 * The second program's request: the question, then the rule that it computes only, restated after it (the 1.5B plotted
 * for "Make a bar chart of …" although the system prompt said not to).
 */
export function secondProgramRequest(question: string): string {
  return `${question}\n\n${SECOND_PROGRAM_COMPUTES_ONLY}\nWrite the program and run it now.`;
}

export const SECOND_PROGRAM_COMPUTES_ONLY =
  'Compute only, even if the question asks for a chart or a table: print the values it would show, each label with its value. Do not plot, do not save files.';

export const SECOND_PROGRAM_FIX =
  'The program failed. Read the error, fix the program and run it again (complete, self-contained code).';

/** Opens the request to revise an answer a second, independent program disagrees with (tests recognise it). */
export const REVISE_DISAGREEMENT_LEAD =
  'A second program, written independently for the same question, computed a different result.';

/** The second program's code and output, the answer's numbers it did not compute, and what to do. */
export function reviseDisagreementInstruction(second: { code: string; printed: string }, unmatched: string[]): string {
  return [
    REVISE_DISAGREEMENT_LEAD,
    `It ran:\n\`\`\`python\n${second.code}\n\`\`\``,
    `and printed:\n\`\`\`\n${second.printed}\n\`\`\``,
    `It did not compute these numbers of your answer: ${unmatched.join(', ')}. One of the two computations is wrong.`,
    'Check with code which one answers the question (the right file and columns, the right operation, every row), print the result, then give your final answer from what your code printed.',
  ].join('\n');
}

/** Opens the request to revise an answer that gives some of the values asked (tests recognise it). */
export const REVISE_PARTIAL_LEAD = 'Your answer gives only some of the values the question asks for.';

/** The groups the answer left out, what the second program printed, and what to do. */
export function revisePartialInstruction(second: { printed: string }, missing: string[]): string {
  return [
    REVISE_PARTIAL_LEAD,
    `It leaves out: ${missing.join(', ')}.`,
    `A second program, written independently for the same question, printed:\n\`\`\`\n${second.printed}\n\`\`\``,
    'Run code that prints every value asked (each label with its value), then give your final answer with every one of them.',
  ].join('\n');
}
