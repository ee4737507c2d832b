/** The agent's prompts, one home (pure: the workflow builds step instructions from these). */
import type { Pattern } from '../../contracts/conversation';
import type { CorrectnessEvidence } from '../grounding/correctness';
import { tableHoldsValue } from '../grounding/computedAnswer';
import { noValueHint } from '../grounding/noValueHint';

export const SYSTEM_PROMPT = `You are a data-analysis assistant. You answer questions about data by writing and running code with your tools.
- The workspace folder is the current directory of your code: the user's files are there, and every file you write there is shown to the user.
- Code runs in a sandbox without network access; use the web_fetch tool (when offered) to download data.
- Variables persist between your code runs in this conversation. Print the values you need to see.
- To show a table or a chart, call the preloaded save_table(df, title=...) or save_chart(df, kind, x, y, title=...) in your code:
  they write the data file and visualization_manifest.json for you (version "1.0", outputs of type table, line_chart,
  bar_chart, scatter, pie_chart, image or vega_lite, each with a dataFile and its columns; write it yourself for the others).
- When code fails, read the error, fix the code and run it again.
- When you have the result, answer in short markdown with the numbers the user asked for.`;

/** Earlier turns, shown to the model of a new turn (answers only: code and outputs stay in the workspace). */
export function historySection(turns: Array<{ question: string; answer: string }>, files: string[]): string {
  const parts: string[] = [];
  if (turns.length)
    parts.push(
      'Earlier in this conversation:',
      ...turns.map((t, i) => `Q${i + 1}: ${t.question}\nA${i + 1}: ${t.answer}`),
    );
  parts.push(files.length ? `Files in the workspace: ${files.join(', ')}` : 'The workspace is empty.');
  return parts.join('\n');
}

export const DIRECT_INSTRUCTION =
  'Solve this with a single code run: call python_execute once with complete code that prints the result.';

export const PLAN_INSTRUCTION =
  'Before using any tool, write a short numbered plan (at most 6 steps) for answering the request. Reply with the plan only.';

export function executePlanInstruction(): string {
  return 'Now carry out the plan step by step with your tools, then answer.';
}

export const CRITIQUE_CHECKLIST = [
  'Does the answer answer the question that was asked, with the numbers asked for?',
  'Does every chart have a title?',
  'Are the axes labelled?',
  'Is there a legend where several series are shown?',
  'Is the answer readable (short, clear units, sensible rounding)?',
];

export const CRITIQUE_INSTRUCTION = `Critique the answer above against this checklist:
${CRITIQUE_CHECKLIST.map((c, i) => `${i + 1}. ${c}`).join('\n')}
Reply with one line per item ("ok" or what is wrong). End with a line "VERDICT: OK" if nothing needs fixing, else "VERDICT: REVISE".`;

export const REFINE_INSTRUCTION =
  'Fix what the critique found (run code again if needed), then give the improved final answer.';

/** Opens the request to revise an answer whose numbers were not found in the turn's tool outputs (tests recognise it). */
export const REVISE_NUMBERS_LEAD =
  'These numbers in your answer do not appear in any output of the code or tools you ran in this turn:';

export function reviseNumbersInstruction(
  numbers: string[],
  evidence: Pick<CorrectnessEvidence, 'table' | 'printed'> = {},
  codes: string[] = [],
): string {
  const ask = `${REVISE_NUMBERS_LEAD} ${numbers.join(', ')}.`;
  if (evidence.table && !tableHoldsValue(evidence.table.head)) {
    const why = codes.map(noValueHint).find(Boolean);
    return `${ask} ${savedTable(evidence.table)}\nIt holds no value (its cells are empty or NaN): your code did not compute the result${why ? `; ${why}` : '.'} ${COMPUTE_AGAIN}`;
  }
  if (evidence.table)
    return `${ask} ${savedTable(evidence.table)}\nGive your final answer again with the numbers of this table (or ones your code printed), rounded as written.`;
  if (evidence.printed)
    return `${ask} Your last code run printed:\n\`\`\`\n${evidence.printed}\n\`\`\`\nGive your final answer again with the numbers it printed (rounded as printed); if they do not answer the question, compute them with code first.`;
  return `${ask} ${COMPUTE_AGAIN}`;
}

const COMPUTE_AGAIN =
  'Check each with code (print it), then give your final answer again using only numbers your code printed or wrote (rounded as printed); leave out any number you cannot compute.';

/**
 * Whether a revision for unfound numbers must start by running code: nothing the turn computed holds the answer's
 * numbers (no saved table with a value, nothing printed), so an answer without a new run can only repeat itself (the
 * 1.5B on suite a15 gave its invented 102.67 again when asked to answer from a table holding only NaN).
 */
export function reviseNumbersNeedsCode(evidence: Pick<CorrectnessEvidence, 'table' | 'printed'> = {}): boolean {
  if (evidence.table) return !tableHoldsValue(evidence.table.head);
  return !evidence.printed;
}

/** Opens the request to revise an answer computed with the wrong operation or disagreeing with its table. */
export const REVISE_ANSWER_LEAD = 'Your answer does not fit the question or what your code computed.';

/** The evidence against a grounded answer, stated concretely, and what to do about it. */
export function reviseAnswerInstruction(evidence: CorrectnessEvidence): string {
  const parts = [REVISE_ANSWER_LEAD];
  const op = evidence.operation;
  if (op?.kind === 'distinct')
    parts.push(
      `The question asks for the ${op.asked}, but your code used \`${op.used}\`, which counts every row, repeated values included. Compute it again counting each value once (\`df[<column>].nunique()\`), print the result, then give your final answer from what it printed.`,
    );
  else if (op)
    parts.push(
      `The question asks for the ${op.asked}, but your code used \`${op.used}\`, which counts rows instead of adding up (or averaging) a column. Compute it again with the right operation (a total per group: \`df.groupby(<group column>)[<value column>].sum()\`; an average: \`.mean()\`), print the result, then give your final answer from what it printed.`,
    );
  if (evidence.rows.length) {
    const wrong = evidence.rows.map(
      (r) => `you wrote ${r.stated} for ${r.label}, the table has ${r.expected.join(' / ')}`,
    );
    parts.push(`Your answer disagrees with the table you saved: ${wrong.join('; ')}.`);
  }
  if (evidence.table && !op)
    parts.push(
      `${savedTable(evidence.table)}\nGive your final answer again with the numbers of this table, rounded as written.`,
    );
  return parts.join('\n');
}

function savedTable(table: { file: string; head: string }): string {
  return `The table you saved (${table.file}) has:\n\`\`\`\n${table.head}\n\`\`\``;
}

export function fixInstruction(attempt: number, max: number): string {
  return `The last code run failed. Read the error, fix the code and run it again (attempt ${attempt} of ${max}).`;
}

export function proposeInstruction(branch: number, branches: number): string {
  return `Propose approach ${branch} of ${branches} for this request: a distinct way to compute the answer, in at most 5 lines. Do not run code yet.`;
}

export function evaluateInstruction(candidates: string[], what: 'approaches' | 'results'): string {
  return [
    `Here are ${candidates.length} ${what}:`,
    ...candidates.map((c, i) => `[${i + 1}] ${c}`),
    `Evaluate them for correctness and fit to the request. Reply with your reasoning, then a last line "BEST: <number>".`,
  ].join('\n');
}

export function carryOutInstruction(approach: string): string {
  return `Carry out this approach with your tools, then answer:\n${approach}`;
}

export const CLASSIFY_INSTRUCTION = `Classify this request to choose how to work on it. Options:
- direct: one computation that one code run answers
- react: a few steps with tools (load, compute, maybe a chart)
- plan_execute: a multi-step analysis worth planning first
- reflection: the result is a chart or report whose presentation matters
- tree_of_thoughts: several quite different approaches are possible and the best one is not obvious
- ensemble: compare several models or methods and recommend one
Reply with one line of reasoning, then a last line "PATTERN: <option>".`;

/** The last "KEY: value" line of a reply, lower-cased. */
export function lastTagged(text: string, key: string): string | undefined {
  const matches = [...text.matchAll(new RegExp(`^\\s*${key}\\s*:\\s*(.+?)\\s*$`, 'gim'))];
  return matches.at(-1)?.[1].toLowerCase();
}

/** The JIT choice; anything unrecognised falls back to ReAct (recorded with the reason). */
export function parseClassification(text: string): { pattern: Exclude<Pattern, 'auto'>; recognised: boolean } {
  const choice = lastTagged(text, 'PATTERN')?.replace(/[^a-z_]/g, '');
  const known = ['direct', 'react', 'plan_execute', 'reflection', 'iterative', 'tree_of_thoughts', 'ensemble'] as const;
  const pattern = known.find((p) => p === choice);
  return pattern ? { pattern, recognised: true } : { pattern: 'react', recognised: false };
}

/** 0-based index of the chosen candidate; an unreadable choice picks the first. */
export function parseBest(text: string, count: number): number {
  const n = Number.parseInt(lastTagged(text, 'BEST') ?? '', 10);
  return Number.isInteger(n) && n >= 1 && n <= count ? n - 1 : 0;
}

export function critiquePasses(text: string): boolean {
  return lastTagged(text, 'VERDICT') === 'ok';
}

/** Opens the request for a chart or table the question asked for and the turn did not save (tests recognise it). */
export const REQUESTED_OUTPUT_LEAD = 'The question asks for a';

/** What the model is told when the turn saved no chart (or table) the question asked for: the helper call to make. */
export function requestedOutputInstruction(
  asked: 'chart' | 'table',
  kind?: 'bar' | 'line' | 'scatter' | 'pie',
): string {
  if (asked === 'table')
    return `${REQUESTED_OUTPUT_LEAD} table and none was saved: printing it or writing it in the answer does not save it. Run code that builds the table asked for as a DataFrame and calls save_table(df, title=...), then answer.`;
  const what = kind ? `${kind} chart` : 'chart';
  const call = `save_chart(df, kind='${kind ?? 'bar'}', x=..., y=..., title=...)`;
  return `${REQUESTED_OUTPUT_LEAD} ${what} and none was saved: printing the values does not show a chart. Run code that builds the values to plot as a DataFrame (reset_index() after a groupby) and calls ${call} with its column names as x and y${kind ? '' : " (kind: 'bar', 'line', 'scatter' or 'pie')"}, then answer.`;
}

/** Opens the request to replace a placeholder the answer gives where its value should be (tests recognise it). */
export const PLACEHOLDER_LEAD = 'Your answer has a placeholder';

/** What the model is told when its answer holds a placeholder: compute and print the value, answer with it. */
export function placeholderInstruction(placeholder: string): string {
  return `${PLACEHOLDER_LEAD} (${placeholder}) where the value should be: nothing your code printed gives it. Run code that prints the value asked for (print(...) of the variable that holds it, or compute it again), then answer with the number it printed.`;
}
