/**
 * Whether a program's output added formatting to the answer region: a conditional-format rule covering one of its
 * cells that the input had not, or a fill on a cell that had none. Used by checked_vote for tasks that ask for
 * formatting (a colour, a highlight, a conditional format): there the answer cells' values rightly stay as the input
 * had them (SpreadsheetBench scores values only; CF_8276's answers are its inputs' values), so a candidate that only
 * formats would otherwise fail the `unchanged` check, and one that writes values to pass it breaks the answer.
 *
 * Only additions count, compared by what they cover, not by how they are written: LibreOffice (the recalculation
 * after every run) rewrites styles and colours, so a fill that changed colour or a rule rewritten in another form is
 * not counted, and a workbook only loaded and saved again adds nothing.
 */
import { cellsOf, columnName, parseAnswerPosition } from '../../scoring/answerPosition';
import { openPackage, type OoxmlPackage } from '../../../workbook/ooxmlPackage';
import { attributesOf, elements } from '../../../workbook/xmlScan';
import { columnIndex } from '../../../workbook/worksheetCells';

/** At most this many answer cells are compared (a whole-column region stays bounded). */
const MAX_CELLS = 20_000;

/** What formatting the answer region's cells carry in one workbook. */
interface RegionFormatting {
  /** `<sheet>!<cell>|<rule type>` for every conditional-format rule covering an answer cell. */
  rules: Set<string>;
  /** `<sheet>!<cell>` of every answer cell with a fill (a pattern other than none). */
  filled: Set<string>;
}

/** Whether `output` added conditional formats or fills to the answer region; false when either cannot be read. */
export function formattingAdded(input: string, output: string, answerPosition: string): boolean {
  try {
    const before = regionFormatting(openPackage(input), answerPosition);
    const after = regionFormatting(openPackage(output), answerPosition);
    return [...after.rules].some((r) => !before.rules.has(r)) || [...after.filled].some((c) => !before.filled.has(c));
  } catch {
    return false;
  }
}

function regionFormatting(pkg: OoxmlPackage, answerPosition: string): RegionFormatting {
  const workbookPart = pkg.officeDocumentPart();
  const rels = pkg.rels(workbookPart);
  const sheets = [...elements(pkg.text(workbookPart) ?? '', 'sheet')].map((s) => attributesOf(s.attrs));
  const stylesPart = rels.find((r) => r.type.endsWith('/styles'))?.target;
  const filledStyles = filledStylesOf(stylesPart ? (pkg.text(stylesPart) ?? '') : '');
  const found: RegionFormatting = { rules: new Set(), filled: new Set() };
  for (const piece of parseAnswerPosition(answerPosition, 'strict').pieces) {
    if (piece.target.kind !== 'cells') continue;
    const entry = piece.sheet === null ? sheets[0] : sheets.find((s) => s.name === piece.sheet);
    const part = rels.find((r) => r.id === entry?.id)?.target;
    const xml = part ? pkg.text(part) : undefined;
    if (!entry || xml === undefined) continue;
    const cells = new Set<string>();
    for (const [row, col] of cellsOf(piece.target)) {
      if (cells.size >= MAX_CELLS) break;
      cells.add(`${columnName(col)}${row}`);
    }
    const at = (cell: string) => `${entry.name}!${cell}`;
    for (const { cell, type } of ruleCells(xml)) if (cells.has(cell)) found.rules.add(`${at(cell)}|${type}`);
    for (const c of xml.matchAll(/<(?:[\w.-]+:)?c\s([^>]*?)\/?>/g)) {
      const a = attributesOf(c[1]);
      if (a.r && cells.has(a.r) && filledStyles.has(Number(a.s ?? 0))) found.filled.add(at(a.r));
    }
  }
  return found;
}

/** The cellXfs indices whose fill has a pattern (solid, gray125 is Excel's reserved second fill, never a cell's). */
function filledStylesOf(stylesXml: string): Set<number> {
  const fillsBody = [...elements(stylesXml, 'fills')][0]?.body ?? '';
  const patterned = [...elements(fillsBody, 'fill')].map((f) => {
    const pattern = [...elements(f.body ?? '', 'patternFill')][0];
    const type = pattern ? (attributesOf(pattern.attrs).patternType ?? 'none') : 'none';
    return type !== 'none' && type !== 'gray125';
  });
  const xfsBody = [...elements(stylesXml, 'cellXfs')][0]?.body ?? '';
  const out = new Set<number>();
  [...elements(xfsBody, 'xf')].forEach((xf, i) => {
    if (patterned[Number(attributesOf(xf.attrs).fillId ?? 0)]) out.add(i);
  });
  return out;
}

/** Each cell a conditional-format rule of the sheet covers (sqref ranges expanded, bounded), with the rule's type. */
function* ruleCells(sheetXml: string): Generator<{ cell: string; type: string }> {
  for (const cf of elements(sheetXml, 'conditionalFormatting')) {
    const sqref = attributesOf(cf.attrs).sqref ?? '';
    const types = [...elements(cf.body ?? '', 'cfRule')].map((r) => attributesOf(r.attrs).type ?? '');
    for (const ref of sqref.split(/\s+/).filter(Boolean)) {
      for (const cell of expand(ref)) for (const type of types) yield { cell, type };
    }
  }
}

function* expand(ref: string): Generator<string> {
  const m = /^\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/i.exec(ref);
  if (!m) return;
  const [c0, r0] = [columnIndex(m[1].toUpperCase()), Number(m[2])];
  const [c1, r1] = m[3] ? [columnIndex(m[3].toUpperCase()), Number(m[4])] : [c0, r0];
  let n = 0;
  for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++)
    for (let r = Math.min(r0, r1); r <= Math.max(r0, r1) && n < MAX_CELLS; r++, n++) yield `${columnName(c)}${r}`;
}
