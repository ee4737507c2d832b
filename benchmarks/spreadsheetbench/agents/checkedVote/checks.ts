import { transformValue } from '../../../workbook/cellValue';
import type { RegionCell, RegionRead } from './regionCells';
import { dateTextIdiom } from './dateText';

/** What one test case's run of a candidate gave: the execution, and the answer region of its output and input. */
export interface CaseEvidence {
  testCase: number;
  error: string;
  timedOut: boolean;
  outputProduced: boolean;
  /** The output's answer region; undefined when there is no output or it could not be read (`unreadable`). */
  output?: RegionRead;
  unreadable?: string;
  input: RegionRead;
  /** The output's charts differ from the input's, where charts are answers (SpreadsheetBench 2 chart tasks). */
  chartsChanged?: boolean;
  /**
   * The output added conditional formats or fills to the answer region (formattingChange.ts), read only for a task
   * asking for formatting: its answer cells' values rightly stay as they were.
   */
  formattingAdded?: boolean;
  /** Cells changed outside the answer region on its sheets (strayWrites.ts): named when the region was left as it was. */
  strayWrites?: string[];
}

export type ProblemKind =
  | 'crashed'
  | 'timed_out'
  | 'no_output'
  | 'unreadable'
  | 'missing_sheet'
  | 'empty'
  | 'unchanged'
  | 'constant'
  | 'error_value'
  | 'junk_text'
  | 'date_text'
  | 'stray_space'
  | 'inconsistent_types'
  | 'empty_reference'
  | 'lookup_miss'
  | 'criteria_mismatch'
  | 'no_reference'
  | 'text_arithmetic'
  | 'late_start'
  | 'colour_as_value'
  | 'dropped_reference'
  | 'example_mismatch';

export interface Problem {
  kind: ProblemKind;
  /** Absent for problems of the candidate as a whole (unchanged, inconsistent types). */
  testCase?: number;
  detail: string;
}

export interface CheckResult {
  passed: boolean;
  problems: Problem[];
  /** Per test case, each answer cell as the scorer compares it (the candidate's vote). */
  signature: string[][];
}

const ERROR_VALUE = /^(#N\/A|#VALUE!|#REF!|#DIV\/0!|#NUM!|#NAME\?|#NULL!|#SPILL!|#CALC!|#GETTING_DATA|Err:\d+)$/;
/** Text a program writes instead of an answer: placeholders, code, tracebacks, talk about the solution. */
const JUNK_TEXT =
  /```|\bTODO\b|placeholder|lorem ipsum|path_to|Traceback|^\s*(None|nan|NaN|null|undefined)\s*$|\b(the|this) (formula|code|function|macro)\b|\byou (can|should|need)\b|^=?\s*(Sub|Function)\s+\w+\(/i;

/**
 * The checks a candidate must pass before it may be submitted, all without the answers: it ran on every test case,
 * wrote the output, filled the answer region (and did not leave it exactly as the inputs had it), wrote no Excel
 * error values and no prose or placeholders there, and wrote the same kind of values on every test case; `found`:
 * what was found wrong in the candidate itself (a formula's references: formulaProblems.ts).
 */
/** What the checks know of the task itself. */
export interface TaskTraits {
  /** The instruction asks for formatting (a colour, a highlight, a fill, a conditional format). */
  formatting?: boolean;
  /**
   * Excel error values the instruction names as a possible result (the benchmark appends "The formula data output
   * result may be "#N/A"." where the answer holds some): allowed in some answer cells, not in all of them.
   */
  allowedErrors?: string[];
}

/** The Excel error values an instruction names (errorsNamedIn("... may be \"#N/A\".") is ["#N/A"]). */
export function errorsNamedIn(instruction: string): string[] {
  const named = instruction.match(/#(N\/A|VALUE!|REF!|DIV\/0!|NUM!|NAME\?|NULL!)/g) ?? [];
  return [...new Set(named)];
}

export function checkCandidate(cases: CaseEvidence[], found: Problem[] = [], traits: TaskTraits = {}): CheckResult {
  const problems = cases.flatMap((c) => caseProblems(c, traits));
  problems.push(...candidateProblems(cases), ...found);
  return {
    passed: problems.length === 0,
    problems,
    signature: cases.map((c) => (c.output?.cells ?? []).map(token)),
  };
}

function caseProblems(c: CaseEvidence, traits: TaskTraits): Problem[] {
  const at = (kind: ProblemKind, detail: string): Problem => ({ kind, testCase: c.testCase, detail });
  if (c.timedOut) return [at('timed_out', 'it did not finish within the time limit')];
  if (c.error.trim()) return [at('crashed', c.error.trim())];
  if (!c.outputProduced) return [at('no_output', 'no output workbook was saved')];
  if (!c.output) return [at('unreadable', c.unreadable ?? 'the output workbook could not be read')];
  const out: Problem[] = [];
  if (c.output.missingSheets.length)
    out.push(at('missing_sheet', `sheet(s) ${c.output.missingSheets.map((s) => `'${s}'`).join(', ')} missing`));
  const written = c.output.cells.filter(isWritten);
  if (!written.length && c.output.cells.length) out.push(at('empty', `every answer cell is empty${elsewhere(c)}`));
  const allowed = new Set(traits.allowedErrors ?? []);
  const errors = written.filter(isErrorValue);
  const refused = errors.length === written.length ? errors : errors.filter((e) => !allowed.has(String(e.value)));
  if (refused.length)
    out.push(at('error_value', `${refused.length} cell(s) hold Excel errors, e.g. ${show(refused[0])}`));
  const junk = written.filter((cell) => typeof cell.value === 'string' && JUNK_TEXT.test(cell.value));
  if (junk.length)
    out.push(at('junk_text', `${junk.length} cell(s) hold text that is not an answer, e.g. ${show(junk[0])}`));
  const colours = traits.formatting ? coloursOverValues(c.output.cells, c.input.cells) : [];
  if (colours.length)
    out.push(
      at(
        'colour_as_value',
        `${colours.length} cell(s) that held values now hold the name of a colour (e.g. ${show(colours[0])}): the task asks for formatting; colour a cell through its fill or a conditional format and keep its value`,
      ),
    );
  const spaced = edgeSpaced(c.output.cells, c.input.cells);
  if (spaced.length)
    out.push(
      at(
        'stray_space',
        `${spaced.length} cell(s) written with a space at the start or end of their text (e.g. ${show(spaced[0])}): strip the text you write (text.strip())`,
      ),
    );
  const dateText = written.filter(isDateText);
  if (dateText.length && written.some(isDate))
    out.push(
      at(
        'date_text',
        `${dateText.length} cell(s) hold a date written as text (e.g. ${show(dateText[0])}) among cells holding dates: write dates as datetime.datetime values${parseIdiom(dateText[0])}`,
      ),
    );
  return out;
}

function candidateProblems(cases: CaseEvidence[]): Problem[] {
  const readable = cases.filter((c) => c.output && !c.error.trim() && !c.timedOut);
  if (readable.length !== cases.length || !cases.length) return [];
  const out: Problem[] = [];
  const untouched = (c: CaseEvidence) =>
    !c.chartsChanged && !c.formattingAdded && unchanged(c.output!.cells, c.input.cells);
  if (readable.every(untouched) && readable.some((c) => c.output!.cells.length))
    out.push({
      kind: 'unchanged',
      detail: `every answer cell is exactly as it was in the input, on every test case${elsewhere(readable.find((c) => c.strayWrites?.length) ?? readable[0])}`,
    });
  const constant = readable.map((c) => constantValue(c.output!.cells));
  const errors = readable.some((c) => c.output!.cells.some(isErrorValue));
  if (!errors && constant.every((v) => v !== undefined))
    out.push({
      kind: 'constant',
      detail: `every answer cell holds the same value on each input (${constant.map((v, i) => `${v} on input ${readable[i].testCase}`).join(', ')}): the answer does not follow each row's data`,
    });
  const kinds = readable.map((c) => mainKind(c.output!.cells)).filter((k): k is string => k !== undefined);
  if (new Set(kinds).size > 1)
    out.push({
      kind: 'inconsistent_types',
      detail: `the answer cells hold mostly ${readable.map((c) => `${mainKind(c.output!.cells) ?? 'nothing'} (test case ${c.testCase})`).join(', ')}`,
    });
  return out;
}

/**
 * The output's answer region is empty or exactly as the input had it: the case whose feedback names the cells changed
 * elsewhere instead (CaseEvidence.strayWrites, read only then).
 */
export function regionLeftAlone(output: RegionRead, input: RegionRead): boolean {
  return !output.cells.some(isWritten) || unchanged(output.cells, input.cells);
}

/** A colour written as a cell's value: a name, "no color", or an RGB hex code. */
const COLOUR_VALUE =
  /^\s*(white|black|red|green|blue|yellow|orange|purple|pink|gr[ae]y|brown|cyan|magenta|no ?colou?r|colou?red|highlighted|#?[0-9a-f]{6}|#?[0-9a-f]{8})\s*$/i;

/**
 * Output cells holding a colour where the input cell held another value (checked-vote-v9, CF_8276: the 1.5B wrote
 * "white" over the hyperlink texts it was asked to colour, which passed every other check and lost the task).
 */
function coloursOverValues(output: RegionCell[], input: RegionCell[]): RegionCell[] {
  if (output.length !== input.length) return [];
  return output.filter((cell, i) => {
    const before = input[i];
    return (
      typeof cell.value === 'string' &&
      COLOUR_VALUE.test(cell.value) &&
      isWritten(before) &&
      token(before) !== token(cell)
    );
  });
}

/** Written cells a region needs before one value repeated in all of them counts as a constant answer. */
const MIN_CONSTANT_CELLS = 3;

/**
 * The one value every written answer cell holds (as the scorer compares it), when the region has at least
 * MIN_CONSTANT_CELLS written cells and they all agree; else undefined. A formula filled down a column that gives the
 * same value in every row, on every input, ignores the row it is in (e.g. ROW($C$2) where ROWS($C$2:C2) was meant).
 */
function constantValue(cells: RegionCell[]): string | undefined {
  const written = cells.filter(isWritten);
  if (written.length < MIN_CONSTANT_CELLS) return undefined;
  const values = new Set(written.map(token));
  return values.size === 1 ? JSON.stringify(written[0].value) : undefined;
}

/** The cells a case changed outside the answer region, as a clause ("" when none). */
function elsewhere(c: CaseEvidence): string {
  return c.strayWrites?.length
    ? `; it changed cells outside the answer region instead (${c.strayWrites.join(', ')}, input ${c.testCase}): write into the answer region's own cells`
    : '';
}

/** Text that is a date or date-time as ISO or day/month/year digits ("2021-01-18", "2021-01-18T20:57:45Z", "18/01/2021"). */
const DATE_TEXT =
  /^\s*(\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})\s*$/;

/** The strptime call for a date text's exact shape (v7: the 1.5B's own format did not match "…45.962Z"). */
function parseIdiom(cell: RegionCell): string {
  const idiom = typeof cell.value === 'string' ? dateTextIdiom(cell.value) : undefined;
  return idiom ? ` (${idiom})` : '';
}

function isDateText(cell: RegionCell): boolean {
  return typeof cell.value === 'string' && DATE_TEXT.test(cell.value);
}

function isDate(cell: RegionCell): boolean {
  return (
    typeof cell.value === 'object' &&
    cell.value !== null &&
    (cell.value.kind === 'datetime' || cell.value.kind === 'date')
  );
}

function isErrorValue(cell: RegionCell): boolean {
  return typeof cell.value === 'string' && ERROR_VALUE.test(cell.value);
}

function isWritten(cell: RegionCell): boolean {
  return cell.uncachedFormula || (cell.value !== null && cell.value !== '');
}

/**
 * Cells the candidate wrote whose text starts or ends with whitespace the input's cell did not (checked-vote-v10):
 * 230-16's candidates cut each text before its first letter and kept the space in front of it; the scorer compares
 * text exactly.
 */
function edgeSpaced(output: RegionCell[], input: RegionCell[]): RegionCell[] {
  const edge = (v: unknown) => typeof v === 'string' && /^\s|\s$/.test(v);
  return output.filter(
    (cell, i) => edge(cell.value) && !edge(input[i]?.value) && token(cell) !== token(input[i] ?? cell),
  );
}

function unchanged(output: RegionCell[], input: RegionCell[]): boolean {
  if (output.length !== input.length) return false;
  return output.every((cell, i) => token(cell) === token(input[i]));
}

/** The most frequent kind (number, text, date, …) among the written cells, as the scorer types them. */
function mainKind(cells: RegionCell[]): string | undefined {
  const counts = new Map<string, number>();
  for (const cell of cells.filter(isWritten)) {
    const kind = cell.uncachedFormula ? 'formula' : transformValue(cell.value).type;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** One answer cell as the scorer compares it: numbers rounded to 2 places, numeric text as a number, None ≡ "". */
export function token(cell: Pick<RegionCell, 'value' | 'uncachedFormula'>): string {
  if (cell.uncachedFormula) return 'formula?';
  const t = transformValue(cell.value);
  switch (t.type) {
    case 'none':
      return '';
    case 'str':
      return t.value === '' ? '' : `s:${t.value}`;
    case 'float':
      return `f:${t.value}`;
    default:
      return `${t.type}:${JSON.stringify(t.value)}`;
  }
}

function show(cell: RegionCell): string {
  return `${cell.address} = ${JSON.stringify(cell.value)}`;
}
