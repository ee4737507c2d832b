import type { SheetTask } from '../../dataset';
import type { CheckResult, Problem } from './checks';
import { fillDescription, type FormulaRegion } from './formulaRegion';
import type { RegionRead } from './regionCells';
import type { ReferenceNotes } from './formulaReferences';
import { FORMULA_EXAMPLES } from './examples';
import { SYSTEM_PROMPT, taskContext } from './prompt';

/**
 * How a formula candidate answers: one Excel formula for the answer region's first cell (about 30 tokens to generate
 * instead of a ~400-token program). It follows the task's context shared with Python candidates (prompt.ts).
 */
export const FORMULA_INSTRUCTIONS = `# How to reply: ONE Excel formula

The harness writes your formula into the first cell of the answer region and fills it across the whole region like Excel's fill handle: relative references (A2) shift with each cell, anchored references ($A$2, $A2, A$2) stay where anchored. The workbook is then recalculated and the answer cells are checked on several input workbooks with the same layout but different data.

Rules:
- Reference the cells of the workbook; never type in the values you see (the data differs between inputs).
- When the answer cells already hold a formula, it is usually the user's attempt that gives a wrong result: do not copy it, write the formula the task asks for.
- Anchor with $ the ranges that must not move when the formula is filled (lookup tables, criteria ranges).
- To refer to another sheet write 'Sheet name'!A1:B9.
- Use Excel functions (SUMIFS, COUNTIFS, INDEX, MATCH, XLOOKUP, VLOOKUP, IF, IFERROR, SUMPRODUCT, TEXT, LEFT, MID, EOMONTH, ...). A function that returns several values (FILTER, SORT, UNIQUE) shows only its first in each cell: pick the n-th with INDEX(SORT($A$2:$A$9),ROWS($C$2:C2)). TEXTSPLIT, VSTACK, TAKE and LAMBDA are not available.
- No VBA, no explanations.

Reply with the formula for the first cell in one \`\`\`excel block, for example:
\`\`\`excel
=SUMIFS($D$2:$D$99,$B$2:$B$99,F2)
\`\`\``;

/** A formula candidate's system prompt: the role, how to reply, worked examples (static: the same for every task). */
export const FORMULA_SYSTEM_PROMPT = [SYSTEM_PROMPT, FORMULA_INSTRUCTIONS, FORMULA_EXAMPLES].join('\n\n');

/** A formula candidate's user message: the task's context, how the region is filled, the reminder of the reply's form. */
export function formulaTaskPrompt(task: SheetTask, view: string, region: FormulaRegion): string {
  return [
    taskContext(task, view),
    '',
    fillDescription(region),
    `Write the formula for ${region.first} in one \`\`\`excel block.`,
  ].join('\n');
}

const SAMPLE_CELLS = 8;

/** What an error value in the answer cells tells a formula's author (LibreOffice's and Excel's meanings). */
const ERROR_MEANINGS: Record<string, string> = {
  '#NAME?': 'a function name or a sheet name in the formula is not known',
  '#N/A': 'a lookup (VLOOKUP, MATCH, ...) found no match: check the lookup value and the range it searches',
  '#REF!': 'a reference points outside the sheet or to a sheet that does not exist',
  '#VALUE!': 'an argument has the wrong type (text where a number is needed, or a range where one cell is needed)',
  '#DIV/0!': 'a division by zero or by an empty cell',
  'Err:502': 'an argument is not valid for its function',
  'Err:504': 'a function got the wrong number or kind of arguments',
  'Err:508': 'the parentheses do not match',
};

/** The repair request after a formula candidate's failed check: what the filled formula gave, then the ask. */
export function formulaRepairMessage(
  formula: string | undefined,
  region: FormulaRegion,
  check: CheckResult,
  sample?: { testCase: number; region: RegionRead },
  /** What the formula's references get wrong in one test case's input (formulaReferences.ts). */
  notes?: { testCase: number } & ReferenceNotes,
): string {
  const lines = [
    `Your formula${formula ? ` ${formula}` : ''} was filled across ${region.range}, calculated on each input workbook and checked. It did not pass:`,
    ...shownProblems(check.problems).map(describe),
  ];
  // The empty_reference problem, when found, already names the references that read nothing anywhere.
  if (notes?.empty.length && !check.problems.some((p) => p.kind === 'empty_reference'))
    lines.push(
      `- input ${notes.testCase}: the formula reads cells that are empty there (${notes.empty.join(', ')}): find in the workbook view the cells that hold the data it needs`,
    );
  if (notes?.cutShort.length)
    lines.push(`- input ${notes.testCase}: ${notes.cutShort.join('; ')}: a range should cover all of its table's rows`);
  if (sample?.region.cells.length) {
    const cells = sample.region.cells
      .slice(0, SAMPLE_CELLS)
      .map((c) => `${c.address}: ${c.uncachedFormula ? '(not calculated)' : JSON.stringify(c.value)}`);
    lines.push('', `The answer cells on input ${sample.testCase}: ${cells.join(' | ')}`);
    const errors = new Set(sample.region.cells.map((c) => c.value).filter((v) => typeof v === 'string'));
    lines.push(
      ...Object.entries(ERROR_MEANINGS).flatMap(([error, meaning]) =>
        errors.has(error) ? [`${error} means ${meaning}.`] : [],
      ),
    );
  }
  lines.push(
    '',
    `Fix it. Reply with the corrected formula for ${region.first} in one \`\`\`excel block and nothing else.`,
  );
  return lines.join('\n');
}

/** Problems found in the formula itself (formulaProblems.ts): each names its cause and the fix. */
const CAUSES = new Set<Problem['kind']>([
  'empty_reference',
  'lookup_miss',
  'criteria_mismatch',
  'no_reference',
  'text_arithmetic',
  'late_start',
  'dropped_reference',
]);
/** Symptoms whose generic advice a known cause makes misleading (v8.2: "use relative references" for a constant
 * answer turned 57105's empty $A4 into the still empty A4 instead of the $B4 the cause named). */
const SYMPTOMS = new Set<Problem['kind']>(['unchanged', 'constant']);

/** The problems as the repair request shows them: causes first; the symptoms they explain left out. */
function shownProblems(problems: Problem[]): Problem[] {
  const causes = problems.filter((p) => CAUSES.has(p.kind));
  if (!causes.length) return problems;
  return [...causes, ...problems.filter((p) => !CAUSES.has(p.kind) && !SYMPTOMS.has(p.kind))];
}

/** A reply without a usable formula: the same ask, with why. */
export function noFormulaMessage(problem: string, region: FormulaRegion): string {
  return `Your reply could not be used: ${problem}.\nReply with one Excel formula for ${region.first} (starting with "=") in one \`\`\`excel block, and nothing else.`;
}

function describe(p: Problem): string {
  const where = p.testCase === undefined ? 'all inputs' : `input ${p.testCase}`;
  if (p.kind === 'unchanged')
    return `- ${where}: the formula gives exactly the values the cells already had, so it does not do what the task asks: write a different formula`;
  if (p.kind === 'constant')
    return `- ${where}: ${p.detail}. Refer to the first row's own cells with relative references (A2, not $A$2), or count the row with ROWS($X$2:X2), so that each cell gets its own result`;
  const detail = p.kind === 'crashed' ? lastLine(p.detail) : p.detail;
  return `- ${where}: ${detail}`;
}

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .pop() ?? text
  );
}
