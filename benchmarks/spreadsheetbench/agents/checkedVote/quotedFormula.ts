import { openWorkbookValues } from '../../../workbook/ooxmlReader';
import type { Problem } from './checks';
import { blankIn, isEmpty, referencesOf, sheetOf, type FormulaReference } from './formulaReferences';

/** A function call as a forum user writes one into prose: a name, maybe a space, then "(". */
const CALL_START = /(^|[^\w.])([A-Za-z][A-Za-z0-9.]*)\s*\(/g;
/** "add … condition": asking to change a formula, and to add a condition to it. */
const ADD_CONDITION = String.raw`\badd\b[^.]{0,60}\b(condition|criteri\w*|check|test)\b`;

/** The instruction asks to change a formula the user already has, rather than for a new one. */
const CHANGE_ASKED = new RegExp(
  String.raw`\b(my|current|existing|original) formula\b|\b(modify|amend|adjust|extend|tweak)\b|` + ADD_CONDITION,
  'i',
);

/** The instruction asks to add a condition to the user's formula (39604: "add one more condition to my current formula"). */
const CONDITION_ADDED = new RegExp(
  ADD_CONDITION + String.raw`|\b(one more|another|additional|extra) (condition|criteri\w*)\b`,
  'i',
);

/**
 * The one formula an instruction quotes as the user's own, when it asks to change it ("add one more condition to my
 * current formula: If ((B3*1000)<22000,B4-20,B4-30)"): the first call with balanced parentheses reading at least two
 * distinct cells. Undefined when the instruction asks for no change, or quotes no formula or more than one (which one
 * is the user's is then a guess).
 */
export function quotedFormulaOf(instruction: string): string | undefined {
  if (!CHANGE_ASKED.test(instruction)) return undefined;
  const found: string[] = [];
  let searchFrom = 0;
  for (const m of instruction.matchAll(CALL_START)) {
    const start = (m.index ?? 0) + m[1].length;
    if (start < searchFrom) continue; // a call nested inside a formula already taken
    const end = closingParenthesis(instruction, start + m[0].length - m[1].length - 1);
    if (end === undefined) continue;
    const text = instruction.slice(start, end + 1);
    searchFrom = end + 1;
    if (new Set(referencesOf(text).map(key)).size >= 2) found.push(text);
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The cells of the user's quoted formula that hold data on the input and that a candidate no longer reads, when it
 * still reads others of them: it rewrote the user's formula instead of changing it (the 1.5B's 39604:
 * `=IF(B4<=20,0,B4-30)` kept B4 and dropped the current formula's B3 test, passing every check on the values). A
 * reference of the user's that reads only empty cells is theirs to lose (57105's $A4: the harness's own mend swaps it
 * for the cells holding the data), and a candidate that reads none of the user's cells was written for other cells or
 * rows: both are left to the other checks.
 */
export async function droppedReferences(
  quoted: string,
  formula: string,
  input: { file: string; sheet: string | null },
): Promise<string[]> {
  const wb = await openWorkbookValues(input.file);
  const kept = new Set(referencesOf(formula).map(key));
  const theirs: FormulaReference[] = [];
  for (const ref of uniqueBy(referencesOf(quoted), key)) {
    const sheet = await sheetOf(wb, ref, input.sheet);
    if (sheet && !isEmpty(ref, blankIn(sheet))) theirs.push(ref);
  }
  const dropped = theirs.filter((r) => !kept.has(key(r)));
  return dropped.length && dropped.length < theirs.length ? dropped.map((r) => r.text.replace(/\$/g, '')) : [];
}

/**
 * The check on a formula candidate: the user's formula, if the instruction quotes one to change, kept whole
 * (checked-vote-v13). `input` is the first test case's input, and the sheet the formula is written on.
 */
export async function quotedFormulaProblems(
  instruction: string,
  formula: string,
  input: { file: string; sheet: string | null },
): Promise<Problem[]> {
  const quoted = quotedFormulaOf(instruction);
  const dropped = quoted ? await droppedReferences(quoted, formula, input) : [];
  if (!quoted || !dropped.length) return [];
  return [
    {
      kind: 'dropped_reference',
      detail: `the task asks to change the user's formula ${quoted}, which reads ${dropped.join(', ')}; this formula no longer reads ${dropped.length > 1 ? 'them' : 'it'}: keep the user's formula whole and add what the task asks around it (a new condition as the outermost IF: =IF(<new condition>, <its value>, <the user's formula>))`,
    },
  ];
}

/**
 * The user's formula when the instruction asks to add a condition to it: a candidate that keeps it whole, as a part of
 * its own formula, then wins the vote over those that do not (checked-vote-v15, `keepsWhole`). Undefined otherwise.
 */
export function formulaToExtendOf(instruction: string): string | undefined {
  return CONDITION_ADDED.test(instruction) ? quotedFormulaOf(instruction) : undefined;
}

/**
 * Whether a formula holds the user's formula unchanged as a part of it, spaces, `$` signs and letter case aside
 * (39604's `=IF(B4<=20,0,IF((B3*1000)<22000,B4-20,B4-30))` holds `If ((B3*1000)<22000,B4-20,B4-30)`; its
 * `=IF(B3<=20,0,B4-30)`, which also reads B3 and B4, does not).
 */
export function keepsWhole(quoted: string, formula: string): boolean {
  const plain = (text: string) => text.replace(/[\s$]/g, '').replace(/^=/, '').toUpperCase();
  return plain(formula).includes(plain(quoted));
}

function closingParenthesis(text: string, open: number): number | undefined {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    if (quoted) continue;
    if (ch === '(') depth++;
    if (ch === ')' && --depth === 0) return i;
  }
  return undefined;
}

function key(r: FormulaReference): string {
  return `${(r.sheet ?? '').toLowerCase()}!${r.rowStart}:${r.colStart}:${r.rowEnd}:${r.colEnd}`;
}

function uniqueBy<T>(items: T[], keyOf: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(keyOf(item))) seen.set(keyOf(item), item);
  return [...seen.values()];
}
