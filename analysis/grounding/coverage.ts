import { NumberIndex } from './match';
import { numbersInOutput, numbersInProse, type WrittenNumber } from './numbers';

/**
 * Whether an answer gives every value a question asks for, read against what a second, independently written program
 * printed: a question asking a value per group ("the total amount per region") whose second program printed one
 * labelled value per group ("east 647", "north: 407") is answered in part when the answer (or a table the turn saved)
 * states fewer of those values. The 1.5B answered "407" to "What is the total amount per region?" with all four totals
 * printed above it, and the cross-check agreed: the one number it gave was right. Pure functions, no I/O.
 */

/** A value the second program printed on a line of its own, with the label it printed before it. */
export interface LabelledValue {
  label: string;
  value: WrittenNumber;
}

/** More labelled values than this is a dump of rows, not one value per group: nothing is read. */
const MAX_GROUPS = 40;

/**
 * "per region", "by month", "for each product", "of every store": a value per group. Not a ratio ("per row", "per
 * cent") nor "by how much".
 */
const PER_GROUP =
  /\b(?:per|by|for each|for every|of each|of every|in each|across)\s+(?!how\b|what\b|rows?\b|records?\b|lines?\b|entr(?:y|ies)\b|cent\b|itself\b|the way\b)[a-z_][\w-]*/i;

/** Whether the question asks for a value per group (the groups are then every label the data has). */
export function asksPerGroup(question: string): boolean {
  return PER_GROUP.test(question);
}

/**
 * The lines of a program's output that are one label and one value: "east     647", "north: 407", "Total for west =
 * 525.0", "0  east  647" (a row number first). Headers, blank lines and lines with several values are left out; a label
 * printed twice counts once (its first value).
 */
export function labelledValues(printed: string): LabelledValue[] {
  const out = new Map<string, LabelledValue>();
  for (const raw of printed.split(/\r?\n/)) {
    const line = raw.replace(/^\s*\d+\s+(?=\S*[^\d\s.,])/, ''); // a DataFrame's row number before its label
    const numbers = numbersInProse(line);
    if (numbers.length !== 1) continue;
    const value = numbers[0];
    if (
      line
        .slice(value.end)
        .trim()
        .replace(/[.,;)]+$/, '')
    )
      continue; // the value ends the line
    const label = line
      .slice(0, value.start)
      .replace(/[\s:=,|\-–]+$/, '')
      .trim();
    if (!/[\p{L}\d]/u.test(label) || /^(name|dtype|length)\b/i.test(label)) continue;
    const key = label.toLowerCase();
    if (!out.has(key)) out.set(key, { label, value });
  }
  return [...out.values()];
}

/**
 * The groups the answer leaves out: when the question asks a value per group and the second program printed two or
 * more labelled values, those whose value neither the answer states nor a table the turn saved holds. Empty when the
 * answer is complete or when there is nothing to read it against.
 */
export function missingGroups(question: string, answer: string, printed: string, savedTables: string[]): string[] {
  if (!asksPerGroup(question)) return [];
  const groups = labelledValues(printed);
  if (groups.length < 2 || groups.length > MAX_GROUPS) return [];
  const stated = numbersInProse(answer);
  const saved = new NumberIndex();
  savedTables.forEach((text, i) => saved.add(i, numbersInOutput(text)));
  return groups.filter((g) => !stated.some((s) => sameValue(s, g.value)) && !saved.find(g.value)).map((g) => g.label);
}

/** A number of the answer renders the printed value: the printed value, to the answer's precision (or the other way). */
function sameValue(stated: WrittenNumber, printed: WrittenNumber): boolean {
  const one = new NumberIndex();
  one.add(0, [{ value: printed.value, at: 0 }]);
  if (one.find(stated)) return true;
  const other = new NumberIndex();
  other.add(0, [{ value: stated.value, at: 0 }]);
  return Boolean(other.find(printed));
}
