/**
 * Names a formula uses that neither Excel nor the workbook defines (checked-vote-v9). Small models write a name for
 * what they look up instead of its cells (50811: `MATCH(Rep_Name&Client_Name, …)` in 5 of 5 candidates), which
 * LibreOffice computes as #NAME? in every cell; the check then said only "#NAME?", and the repairs kept the names.
 * Caught before anything runs, the request names each one and asks for the cells that hold it.
 */

/** Identifiers that are values, not names. */
const LITERALS = new Set(['TRUE', 'FALSE']);
/** Functions whose arguments declare names of their own (LET's variables, LAMBDA's parameters): not judged. */
const DECLARING = /\b(?:_xlfn\.)?(?:LET|LAMBDA)\s*\(/i;
/** Excel's last column is XFD (16,384). */
const MAX_COLUMN = 16_384;

/**
 * The identifiers of `formula` (outside "text" and 'sheet names') that are not a function called, a sheet before "!",
 * a table before "[", a cell, a column or row range, TRUE/FALSE or a defined name of the workbook (case-insensitive);
 * each once, in order. Empty when the formula declares names of its own (LET, LAMBDA).
 */
export function unknownNames(formula: string, definedNames: readonly string[]): string[] {
  if (DECLARING.test(formula)) return [];
  const defined = new Set(definedNames.map((n) => n.toUpperCase()));
  const out: string[] = [];
  for (const token of identifiersOf(formula)) {
    const upper = token.text.toUpperCase();
    if (LITERALS.has(upper) || defined.has(upper) || out.includes(token.text)) continue;
    if (/^[([!]/.test(token.next) || isCellReference(token.text)) continue;
    if (isColumnName(token.text) && (token.next.startsWith(':') || token.previous === ':')) continue;
    out.push(token.text);
  }
  return out;
}

/** The request for a formula using unknown names: each named, with what to write instead. */
export function unknownNamesProblem(names: string[], definedNames: readonly string[]): string {
  const visible = definedNames.filter((n) => !/^_xlnm\./i.test(n));
  const has = visible.length
    ? `its names are ${visible
        .slice(0, 8)
        .map((n) => JSON.stringify(n))
        .join(', ')}`
    : 'it defines none';
  const listed = names
    .slice(0, 4)
    .map((n) => JSON.stringify(n))
    .join(', ');
  return `the formula uses ${listed}, which ${names.length > 1 ? 'are' : 'is'} not a cell, a range, a function or a name this workbook defines (${has}): write the address of the cells that hold ${names.length > 1 ? 'them' : 'it'} instead (e.g. B21 or Sheet1!$A$2:$A$20), as the workbook view shows them`;
}

interface Identifier {
  text: string;
  /** The rest of the formula after it, spaces skipped. */
  next: string;
  /** The character just before it. */
  previous: string;
}

/** Identifiers outside quotes: a letter, `_` or `\` first, then letters, digits, `_`, `.`, `$`; `$A$1` taken whole. */
function identifiersOf(formula: string): Identifier[] {
  const out: Identifier[] = [];
  let quote: string | undefined;
  for (let i = 1; i < formula.length; i++) {
    const c = formula[i];
    if (quote) {
      if (c === quote) quote = undefined; // a doubled quote closes and reopens: same result
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    if (c === '[') {
      i = bracketEnd(formula, i); // a table's column, Sales[Amount] or Sales[[#This Row],[Amount]]: not a name
      continue;
    }
    const error = /^#[A-Za-z0-9/]+[!?]?/.exec(formula.slice(i)); // #N/A, #DIV/0!, #NAME?: values, not names
    if (error) {
      i += error[0].length - 1;
      continue;
    }
    const m = /^\$?[A-Za-z_\\][A-Za-z0-9_.$]*/.exec(formula.slice(i));
    if (!m || /[A-Za-z0-9_.$#]/.test(formula[i - 1])) continue;
    out.push({ text: m[0], next: formula.slice(i + m[0].length).trimStart(), previous: formula[i - 1] });
    i += m[0].length - 1;
  }
  return out;
}

/** Where the bracket opened at `start` closes (nested brackets counted), or the formula's end. */
function bracketEnd(formula: string, start: number): number {
  let depth = 0;
  for (let i = start; i < formula.length; i++) {
    if (formula[i] === '[') depth++;
    else if (formula[i] === ']' && --depth === 0) return i;
  }
  return formula.length;
}

function isCellReference(text: string): boolean {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(text);
  return m !== null && isColumnName(m[1]) && Number(m[2]) >= 1 && Number(m[2]) <= 1_048_576;
}

function isColumnName(text: string): boolean {
  const letters = text.replace(/^\$/, '');
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return false;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n <= MAX_COLUMN;
}

/** Functions whose value depends on where or when they are calculated, not on the cells they read. */
const POSITIONAL = new Set(['ROW', 'ROWS', 'COLUMN', 'COLUMNS', 'TODAY', 'NOW', 'RAND', 'RANDBETWEEN', 'RANDARRAY']);
const CALL = /([A-Za-z_][\w.]*)\s*\(/g;
const WHOLE_LINES = /(?:^|[^\w.$])(?:\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)(?![\w(])/;

/**
 * A formula that reads no cell, range or defined name and depends on no position or time (`=IFERROR(0,"")`,
 * `=0.1*100`): it gives one value in every cell it fills, on every input, whatever the data (checked-vote-v9; v8.3's
 * 18645 submitted `=IFERROR(0,"")`, which a two-cell answer region let past the constant check).
 */
export function readsNoCell(formula: string, hasReference: boolean, definedNames: readonly string[]): boolean {
  if (hasReference) return false;
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""');
  if (WHOLE_LINES.test(code)) return false;
  if (identifiersOf(code).some((t) => definedNames.some((n) => n.toUpperCase() === t.text.toUpperCase()))) return false;
  const called = [...code.matchAll(CALL)].map((m) => m[1].replace(/^(_xlfn\.)?(_xlws\.)?/i, '').toUpperCase());
  return !called.some((name) => POSITIONAL.has(name) || name === 'INDIRECT' || name === 'OFFSET');
}
