import { openWorkbookValues } from '../../../workbook/ooxmlReader';
import type { Problem } from './checks';
import { filledSpan } from './formulaFill';
import { blankIn, isEmpty, referencesOf, sheetNameOf, sheetOf, type FormulaReference } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';
import { lookupMisses, type LookupMiss } from './lookupMisses';
import { criteriaMismatch } from './criteriaMismatch';
import { nearbyWithData, type NearbyData } from './nearbyData';
import { readsNoCell } from './formulaNames';
import { textInArithmetic } from './textArithmetic';
import { rowsMoved, type ReferenceSwap } from './causeMends';
import { lookupHomes } from './lookupHomes';
import { describeLateStarts, lateStarts, type LateStart } from './rangeStarts';

/** References named in one problem. */
const MAX_NAMED = 3;

/**
 * What a formula candidate's formula gets wrong, read from the inputs (never the answers) before its values are
 * judged (checked-vote-v8): a reference that reads only empty cells wherever the formula is filled, on every input
 * (a forum user's formula whose cells are not where this workbook has its data, or a multiplier cell that does not
 * exist: 57105's $A4, 18645's Data!$G$2); an exact lookup that misses a value its own column holds just outside the
 * searched range (lookupMisses.ts). Both fail the candidate: either one hides behind IFERROR or a 0 that passes every
 * check on the values. Since checked-vote-v9 also a formula that reads no cell at all (formulaNames.ts), and one that
 * computes with a cell holding text (textArithmetic.ts), and a fixed range that starts below its column's first data
 * rows (rangeStarts.ts).
 */
export async function formulaProblems(
  inputs: { testCase: number; file: string }[],
  formula: string,
  region: FormulaRegion,
): Promise<Problem[]> {
  return (await formulaFindings(inputs, formula, region)).problems;
}

/** formulaProblems, and the reference swaps their causes name (causeMends.ts), for the harness to try itself. */
export async function formulaFindings(
  inputs: { testCase: number; file: string }[],
  formula: string,
  region: FormulaRegion,
): Promise<{ problems: Problem[]; swaps: ReferenceSwap[] }> {
  const emptyOnEvery = new Map<string, number>();
  /** Per empty reference, where data is beside it on the first input. */
  const nearby = new Map<string, NearbyData[]>();
  let miss: { testCase: number; misses: LookupMiss[] } | undefined;
  let mismatch: Awaited<ReturnType<typeof criteriaMismatch>>;
  let onText: string | undefined;
  let late: LateStart[] = [];
  let definedNames: string[] = [];
  for (const input of inputs) {
    const wb = await openWorkbookValues(input.file);
    definedNames = wb.definedNames;
    const emptyHere = new Set<string>();
    for (const ref of referencesOf(formula)) {
      const sheet = await sheetOf(wb, ref, region.sheet);
      if (!sheet || emptyHere.has(ref.text)) continue;
      if (!isEmpty(filledSpan(ref, region.rows, region.columns), blankIn(sheet))) continue;
      emptyHere.add(ref.text);
      const onRegionSheet = sheetNameOf(wb, ref, region.sheet) === sheetNameOf(wb, {}, region.sheet);
      if (input === inputs[0]) nearby.set(ref.text, nearbyWithData(ref, sheet, region, onRegionSheet));
    }
    for (const text of emptyHere) emptyOnEvery.set(text, (emptyOnEvery.get(text) ?? 0) + 1);
    if (input === inputs[0]) mismatch = await criteriaMismatch(wb, formula, region);
    if (input === inputs[0]) onText = await textInArithmetic(wb, formula, region);
    if (input === inputs[0]) late = await lateStarts(wb, formula, region);
    const misses = miss ? [] : await lookupMisses(wb, formula, region);
    if (misses.length) miss = { testCase: input.testCase, misses };
  }
  const empty = [...emptyOnEvery].filter(([, n]) => n === inputs.length).map(([text]) => text);
  const problems: Problem[] = [];
  if (inputs.length && readsNoCell(formula, referencesOf(formula).length > 0, definedNames))
    problems.push({
      kind: 'no_reference',
      detail: `the formula reads no cell: it gives the same value in every cell of ${region.range}, whatever the data; write it to compute the answer from the cells that hold the data`,
    });
  if (inputs.length && empty.length)
    problems.push({
      kind: 'empty_reference',
      detail: `the formula reads only empty cells through ${named(empty)}, in every cell of ${region.range} and on every input: find in the workbook view the cells that hold the data it needs${besides(empty, nearby)}`,
    });
  if (miss)
    problems.push({
      kind: 'lookup_miss',
      testCase: miss.testCase,
      detail: miss.misses.slice(0, 2).map(describeMiss).join('; '),
    });
  if (mismatch) problems.push({ kind: 'criteria_mismatch', testCase: inputs[0].testCase, detail: mismatch.detail });
  if (onText) problems.push({ kind: 'text_arithmetic', testCase: inputs[0].testCase, detail: onText });
  if (late.length)
    problems.push({ kind: 'late_start', testCase: inputs[0].testCase, detail: describeLateStarts(late) });
  const read = new Set(referencesOf(formula).map((r) => r.text.replace(/\$/g, '').toUpperCase()));
  const homes = empty.length
    ? await lookupHomes(await openWorkbookValues(inputs[0].file), formula, region, new Set(empty))
    : new Map<string, string>();
  const swaps = swapsOf(empty, nearby, homes, miss?.misses ?? [], mismatch?.swap, read);
  return { problems, swaps: withLateStarts(formula, [...swaps, ...widenings(formula, miss?.misses ?? [])], late) };
}

/**
 * A missed lookup's range widened to the row holding its value, and every range of the formula parallel to it (same
 * sheet and rows: INDEX's return range beside MATCH's) widened alike, so they stay aligned.
 */
function widenings(formula: string, misses: LookupMiss[]): ReferenceSwap[] {
  const out: ReferenceSwap[] = [];
  for (const { widen } of misses) {
    if (!widen) continue;
    const { range, row } = widen;
    for (const ref of referencesOf(formula)) {
      if (!isParallel(ref, range) || out.some((s) => s.from === ref.text)) continue;
      out.push({ from: ref.text, to: rowsMoved(ref.text, row, range), because: 'lookup_miss' });
    }
  }
  return out;
}

/**
 * The swaps with each late range started where its data starts, also where another swap moves a range onto it, and
 * the fixed ranges parallel to it (same sheet and rows) started there too, so they stay aligned (v9's 18645: the
 * numbers of Data!$B$2:$B$6 moved to row 1 and the text of Data!$A$2:$A$6 beside them did not).
 */
function withLateStarts(formula: string, swaps: ReferenceSwap[], late: LateStart[]): ReferenceSwap[] {
  const refs = referencesOf(formula);
  const startOf = new Map<string, string>();
  for (const l of late) {
    startOf.set(l.text, l.from);
    const ref = refs.find((r) => r.text === l.text);
    const row = l.row;
    if (!ref) continue;
    for (const other of refs)
      if (isParallel(other, ref) && !startOf.has(other.text)) startOf.set(other.text, rowsMoved(other.text, row, ref));
  }
  const out = swaps.map((s) => ({ ...s, to: startOf.get(s.to) ?? s.to }));
  for (const [from, to] of startOf)
    if (!out.some((s) => s.from === from)) out.push({ from, to, because: 'late_start' });
  return out;
}

/** Two fixed-row ranges on the same sheet over the same rows (INDEX's return range beside MATCH's, SUMIFS' ranges). */
function isParallel(a: FormulaReference, b: FormulaReference): boolean {
  return (
    a.sheet?.toLowerCase() === b.sheet?.toLowerCase() &&
    a.rowStart === b.rowStart &&
    a.rowEnd === b.rowEnd &&
    a.rowEnd > a.rowStart &&
    a.anchored.startRow &&
    a.anchored.endRow
  );
}

/** The swaps the causes name: an empty reference's nearest data, a looked-up label's value, a criteria range's dates. */
function swapsOf(
  empty: string[],
  nearby: Map<string, NearbyData[]>,
  /** Per empty searched range of an exact lookup, the column holding the values it looks up (lookupHomes.ts). */
  homes: Map<string, string>,
  misses: LookupMiss[],
  criteria: [string, string] | undefined,
  read: Set<string>,
): ReferenceSwap[] {
  const swaps: ReferenceSwap[] = [];
  const bare = (text: string) => text.replace(/\$/g, '').toUpperCase();
  for (const text of empty) {
    // Data the formula already reads is not what the empty reference meant (v9's 18645: F2 -> E2 gave E2*(E2/100)),
    // nor data another empty reference is moved to (v10's 18645: G2 and $F2 both -> E2 gave 0.5*E2*($E2="…")).
    const taken = (to: string) => read.has(bare(to)) || swaps.some((s) => bare(s.to) === bare(to));
    const near = nearby.get(text)?.find((n) => !taken(n.text));
    const home = homes.get(text);
    const to = home !== undefined && !taken(home) ? home : near?.text;
    if (to) swaps.push({ from: text, to, because: 'empty_reference' });
  }
  for (const m of misses)
    if (m.instead && !swaps.some((s) => s.from === m.written))
      swaps.push({ from: m.written, to: m.instead, because: 'lookup_miss' });
  if (criteria) {
    const [noDates, dated] = criteria;
    if (!swaps.some((s) => s.from === noDates || s.from === dated))
      swaps.push(
        { from: noDates, to: dated, because: 'criteria_mismatch' },
        { from: dated, to: noDates, because: 'criteria_mismatch' },
      );
  }
  return swaps;
}

function describeMiss(m: LookupMiss): string {
  if (m.instead)
    return `in ${m.cell}, ${m.call} looks for ${m.value} (from ${m.valueAt}), which ${m.searched} does not hold; the value beside it is there (${m.foundAt}): look up ${m.instead} instead of ${m.valueAt}`;
  return `in ${m.cell}, ${m.call} looks for ${m.value} (from ${m.valueAt}) in ${m.searched}, which does not hold it, but ${m.foundAt} does: widen the range to take in all of the data it searches`;
}

/**
 * "; replace $A4 with $B4 (2020-07-01, under "MONTH"), where the data is" for the empty references with data next to
 * them (v8.3: said as "beside $A4, data is in $B4", the 1.5B kept $A4 in three of three repairs).
 */
function besides(empty: string[], nearby: Map<string, NearbyData[]>): string {
  const clauses = empty.slice(0, MAX_NAMED).flatMap((text) => {
    const near = nearby.get(text) ?? [];
    if (!near.length) return [];
    const what = near.map((n) => `${n.text} (${n.sample}${n.header ? `, under ${JSON.stringify(n.header)}` : ''})`);
    return [`replace ${text} with ${what.join(' or with ')}, where the data is`];
  });
  return clauses.length ? `; ${clauses.join('; ')}` : '';
}

function named(items: string[]): string {
  return items.length > MAX_NAMED
    ? `${items.slice(0, MAX_NAMED).join(', ')} and ${items.length - MAX_NAMED} more`
    : items.join(', ');
}
