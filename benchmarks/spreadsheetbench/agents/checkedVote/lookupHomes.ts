import type { WorkbookValues } from '../../../workbook/ooxmlReader';
import { callsOf, type FormulaCall } from './formulaCalls';
import { shifted } from './formulaFill';
import { blankIn, isEmpty, onlyReferenceOf, sheetOf } from './formulaReferences';
import type { FormulaRegion } from './formulaRegion';
import { exactLookupOf, same } from './lookupMisses';
import { referenceText } from './nearbyData';

/** Answer cells whose looked-up values are collected. */
const MAX_CELLS = 200;

/**
 * For an exact lookup (MATCH, XLOOKUP) whose searched column is empty: the column of the same sheet, over the same
 * rows, that holds the values it looks up, as the formula would write it (checked-vote-v10, 18645: MATCH(D2,
 * Data!$D$2:$D$6,0) searches an empty column; the stage names it looks up are in Data!A, three columns over, past
 * the percentages in B that the nearest-data swap chose). Keyed by the searched range as written; the column holding
 * the most of the looked-up values wins, the nearest on a tie.
 */
export async function lookupHomes(
  wb: WorkbookValues,
  formula: string,
  region: FormulaRegion,
  empty: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const homes = new Map<string, string>();
  for (const call of callsOf(formula)) {
    const lookup = exactLookupOf(call);
    if (!lookup || call.name === 'VLOOKUP' || lookup.line.colStart !== lookup.line.colEnd) continue;
    if (!empty.has(lookup.range.text) || homes.has(lookup.range.text)) continue;
    const [valueSheet, lineSheet] = [
      await sheetOf(wb, lookup.value, region.sheet),
      await sheetOf(wb, lookup.line, region.sheet),
    ];
    if (!valueSheet || !lineSheet) continue;
    const values = [];
    for (let dr = 0; dr < Math.min(region.rows, MAX_CELLS); dr++) {
      const at = shifted(lookup.value, dr, 0);
      const v = valueSheet.get(at.rowStart, at.colStart);
      if (v !== null && v !== '') values.push(v);
    }
    if (!values.length) continue;
    let best = { col: 0, held: 0, distance: Infinity };
    for (let col = 1; col <= lineSheet.maxColumn; col++) {
      let held = 0;
      for (const v of values)
        for (let r = 1; r <= lineSheet.maxRow; r++)
          if (same(lineSheet.get(r, col), v)) {
            held++;
            break;
          }
      const distance = Math.abs(col - lookup.line.colStart);
      if (held > best.held || (held === best.held && held > 0 && distance < best.distance))
        best = { col, held, distance };
    }
    if (!best.held) continue;
    const moved = { ...lookup.range, colStart: best.col, colEnd: best.col };
    homes.set(lookup.range.text, referenceText(moved));
  }
  for (const call of callsOf(formula)) await returnHome(wb, call, region, empty, homes);
  return homes;
}

/** Columns looked at on each side of a lookup column for the values an INDEX returns. */
const RETURN_SHIFT = 3;

/**
 * INDEX(values, MATCH(v, keys, 0)) whose values column is empty: the column nearest the keys' column (where they are
 * after their own move) that holds data over the same rows (v9's 18645: INDEX(Data!$G$2:$G$6, MATCH(D2,
 * Data!$A$2:$A$6, 0)); the shares are beside the stage names, in Data!B).
 */
async function returnHome(
  wb: WorkbookValues,
  call: FormulaCall,
  region: FormulaRegion,
  empty: ReadonlySet<string>,
  homes: Map<string, string>,
): Promise<void> {
  const values = call.name === 'INDEX' ? onlyReferenceOf(call.args[0] ?? '') : undefined;
  if (!values || values.colStart !== values.colEnd || !empty.has(values.text) || homes.has(values.text)) return;
  const match = callsOf(call.args[1] ?? '').find((c) => c.name === 'MATCH');
  const keys = match && exactLookupOf(match)?.range;
  if (!keys || keys.colStart !== keys.colEnd || (keys.sheet ?? '').toLowerCase() !== (values.sheet ?? '').toLowerCase())
    return;
  const sheet = await sheetOf(wb, values, region.sheet);
  if (!sheet) return;
  const keyColumn = columnOf(homes.get(keys.text)) ?? keys.colStart;
  for (let shift = 1; shift <= RETURN_SHIFT; shift++)
    for (const col of [keyColumn + shift, keyColumn - shift]) {
      const moved = { ...values, colStart: col, colEnd: col };
      if (col < 1 || isEmpty(moved, blankIn(sheet))) continue;
      homes.set(values.text, referenceText(moved));
      return;
    }
}

/** The column of a reference's text ("Data!$A$2:$A$6" is 1). */
function columnOf(text: string | undefined): number | undefined {
  const ref = text === undefined ? undefined : onlyReferenceOf(text);
  return ref?.colStart;
}
