import { openWorkbookValues } from '../../../workbook/ooxmlReader';
import type { Problem } from './checks';
import { filledSpan } from './formulaFill';
import { blankIn, isEmpty, referencesOf, sheetOf } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';
import { lookupMisses, type LookupMiss } from './lookupMisses';

/** References named in one problem. */
const MAX_NAMED = 3;

/**
 * What a formula candidate's formula gets wrong, read from the inputs (never the answers) before its values are
 * judged (checked-vote-v8): a reference that reads only empty cells wherever the formula is filled, on every input
 * (a forum user's formula whose cells are not where this workbook has its data, or a multiplier cell that does not
 * exist: 57105's $A4, 18645's Data!$G$2); an exact lookup that misses a value its own column holds just outside the
 * searched range (lookupMisses.ts). Both fail the candidate: either one hides behind IFERROR or a 0 that passes every
 * check on the values.
 */
export async function formulaProblems(
  inputs: { testCase: number; file: string }[],
  formula: string,
  region: FormulaRegion,
): Promise<Problem[]> {
  const emptyOnEvery = new Map<string, number>();
  let miss: { testCase: number; misses: LookupMiss[] } | undefined;
  for (const input of inputs) {
    const wb = await openWorkbookValues(input.file);
    const emptyHere = new Set<string>();
    for (const ref of referencesOf(formula)) {
      const sheet = await sheetOf(wb, ref, region.sheet);
      if (sheet && isEmpty(filledSpan(ref, region.rows, region.columns), blankIn(sheet))) emptyHere.add(ref.text);
    }
    for (const text of emptyHere) emptyOnEvery.set(text, (emptyOnEvery.get(text) ?? 0) + 1);
    const misses = miss ? [] : await lookupMisses(wb, formula, region);
    if (misses.length) miss = { testCase: input.testCase, misses };
  }
  const empty = [...emptyOnEvery].filter(([, n]) => n === inputs.length).map(([text]) => text);
  const problems: Problem[] = [];
  if (inputs.length && empty.length)
    problems.push({
      kind: 'empty_reference',
      detail: `the formula reads only empty cells through ${named(empty)}, in every cell of ${region.range} and on every input: find in the workbook view the cells that hold the data it needs`,
    });
  if (miss)
    problems.push({
      kind: 'lookup_miss',
      testCase: miss.testCase,
      detail: miss.misses.slice(0, 2).map(describeMiss).join('; '),
    });
  return problems;
}

function describeMiss(m: LookupMiss): string {
  return `in ${m.cell}, ${m.call} looks for ${m.value} (from ${m.valueAt}) in ${m.searched}, which does not hold it, but ${m.foundAt} does: widen the range to take in all of the data it searches`;
}

function named(items: string[]): string {
  return items.length > MAX_NAMED
    ? `${items.slice(0, MAX_NAMED).join(', ')} and ${items.length - MAX_NAMED} more`
    : items.join(', ');
}
