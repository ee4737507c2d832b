/**
 * openpyxl's shared-formula translation (`Translator.translate_formula`): a dependent cell of a shared formula reads the
 * master's text with every relative reference moved by the row/column offset; `$`-anchored parts, string literals and
 * quoted sheet names stay as they are.
 */
const TOKEN =
  /("(?:[^"]|"")*")|('(?:[^']|'')*'!)|(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)(?![\w(.])/g;

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

function columnLetters(n: number): string {
  let name = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) name = String.fromCharCode(65 + ((x - 1) % 26)) + name;
  return name;
}

function moveColumn(part: string, dc: number): string {
  if (part.startsWith('$')) return part;
  return columnLetters(columnNumber(part) + dc);
}

function moveRow(part: string, dr: number): string {
  if (part.startsWith('$')) return part;
  return String(Number(part) + dr);
}

function moveCell(ref: string, dr: number, dc: number): string {
  const m = /^(\$?[A-Za-z]{1,3})(\$?\d+)$/.exec(ref);
  if (!m) return ref;
  return moveColumn(m[1], dc) + moveRow(m[2], dr);
}

function movePart(part: string, dr: number, dc: number): string {
  if (/^\$?\d+$/.test(part)) return moveRow(part, dr);
  if (/^\$?[A-Za-z]{1,3}$/.test(part)) return moveColumn(part, dc);
  return moveCell(part, dr, dc);
}

/** The dependent formula at an offset of `dr` rows and `dc` columns from the master's cell. */
export function translateFormula(formula: string, dr: number, dc: number): string {
  if (dr === 0 && dc === 0) return formula;
  return formula.replace(TOKEN, (whole, literal?: string, sheet?: string, ref?: string, offset?: number) => {
    if (literal || sheet || !ref) return whole;
    const prev = offset && offset > 0 ? formula[offset - 1] : '';
    if (/[\w.]/.test(prev)) return whole;
    return ref
      .split(':')
      .map((p) => movePart(p, dr, dc))
      .join(':');
  });
}
