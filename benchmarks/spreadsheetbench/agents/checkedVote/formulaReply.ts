import {
  EXCEL_FUNCTIONS,
  PREFIXED_FUNCTIONS,
  UNAVAILABLE_FUNCTIONS,
  WORKSHEET_PREFIXED_FUNCTIONS,
} from './excelFunctions';

/** Longest formula accepted (Excel's own limit is 8,192 characters; a longer reply is not a formula). */
const MAX_FORMULA_CHARS = 2_000;

/** Fenced blocks whose language says Excel or a formula (or none): ```excel, ```vba-less formula, ``` … ```. */
const FENCE = /```[ \t]*([A-Za-z-]*)[^\n]*\n([\s\S]*?)```/g;
const FORMULA_LANGUAGES = new Set(['', 'excel', 'formula', 'xlsx', 'xls', 'sheet', 'spreadsheet', 'text', 'plaintext']);

/**
 * The one formula in a model's reply, or why there is none: the first line starting with "=" inside an Excel (or
 * unlabelled) code block, else the first line of the reply that starts with "=" (prose around it is ignored), else an
 * inline `=…` span. The formula is then validated (formulaProblem). A reply cut at the token limit is accepted only
 * when its formula sat in a closed code block.
 */
export function formulaOf(reply: string, finishReason: string): { formula: string } | { problem: string } {
  const found = rawFormulaOf(reply, finishReason);
  if ('problem' in found) return found;
  const problem = formulaProblem(found.formula);
  return problem ? { problem } : normalizeFunctions(found.formula);
}

/** The formula's text as the reply gives it (found as formulaOf finds it), not yet validated. */
export function rawFormulaOf(reply: string, finishReason: string): { formula: string } | { problem: string } {
  const fenced = fencedFormula(reply);
  if (finishReason === 'length' && fenced === undefined)
    return { problem: 'the reply was cut off at the token limit before a complete formula (finish_reason: length)' };
  const found = fenced ?? bareFormula(reply);
  if (found === undefined) return { problem: 'the reply holds no formula (no line starting with "=")' };
  return { formula: found };
}

function fencedFormula(reply: string): string | undefined {
  for (const m of reply.matchAll(FENCE)) {
    if (!FORMULA_LANGUAGES.has(m[1].toLowerCase())) continue;
    const line = m[2]
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('='));
    if (line !== undefined) return line;
  }
  return undefined;
}

function bareFormula(reply: string): string | undefined {
  const outside = reply.replace(FENCE, '');
  const line = outside
    .split('\n')
    .map((l) => l.trim().replace(/^[-*>]\s+/, ''))
    .find((l) => l.startsWith('='));
  if (line !== undefined) return line.replace(/[.;]+$/, '');
  const inline = /`(=[^`\n]+)`/.exec(reply);
  return inline?.[1].trim();
}

/**
 * Why a text is not a formula the harness can write, or undefined when it is: it starts with "=", has something
 * after it, fits the length limit, has balanced double quotes, single-quoted sheet names and parentheses (outside
 * strings), and no control characters.
 */
export function formulaProblem(formula: string): string | undefined {
  if (!formula.startsWith('=')) return 'a formula must start with "="';
  if (formula.length < 2 || !formula.slice(1).trim()) return 'the formula is empty after "="';
  if (formula.length > MAX_FORMULA_CHARS) return `the formula is longer than ${MAX_FORMULA_CHARS} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(formula)) return 'the formula contains a line break or control character';
  return balanceProblem(formula);
}

/** How a formula's parentheses and quotes stand after a walk outside strings and sheet names. */
export interface FormulaBalance {
  /** Parentheses left open at the end. */
  open: number;
  /** A ")" came before its "(": the walk stopped there. */
  closesUnopened: boolean;
  /** The quote left open at the end, if any. */
  openQuote?: '"' | "'";
}

export function formulaBalance(formula: string): FormulaBalance {
  let depth = 0;
  let quote: '"' | "'" | undefined;
  for (let i = 1; i < formula.length; i++) {
    const c = formula[i];
    if (quote) {
      if (c === quote && formula[i + 1] === quote)
        i++; // "" inside a string, '' inside a sheet name
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return { open: 0, closesUnopened: true };
  }
  return { open: depth, closesUnopened: false, ...(quote ? { openQuote: quote } : {}) };
}

function balanceProblem(formula: string): string | undefined {
  const balance = formulaBalance(formula);
  if (balance.closesUnopened) return 'the formula closes a parenthesis it never opened';
  if (balance.openQuote)
    return balance.openQuote === '"'
      ? 'the formula leaves a text string unclosed (")'
      : "the formula leaves a sheet name unclosed (')";
  if (balance.open > 0) return `the formula leaves ${balance.open} parenthesis(es) unclosed`;
  return undefined;
}

/**
 * The formula with its function names as the file format wants them (upper case; `_xlfn.` before the functions added
 * after Excel 2007, without which LibreOffice computes #NAME?), or why it cannot be calculated: a function that does
 * not exist (with the nearest real name, e.g. EOM → EOMONTH) or one LibreOffice lacks (TEXTSPLIT, VSTACK, …). Caught
 * here, before anything runs, the problem goes back to the model as a precise request. Given `mends`, a misspelled
 * name with a nearest real one is corrected instead, and the correction recorded there (checked-vote-v5).
 */
export function normalizeFunctions(formula: string, mends?: string[]): { formula: string } | { problem: string } {
  let out = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < formula.length; i++) {
    const c = formula[i];
    if (quote) {
      if (c === quote) quote = undefined; // a doubled quote closes and reopens: same result
      out += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      out += c;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_.]*(?=\s*\()/.exec(formula.slice(i))?.[0];
    if (!name || /[A-Za-z0-9_.$]/.test(formula[i - 1] ?? '')) {
      out += c;
      continue;
    }
    const spelled = functionSpelling(name, mends);
    if ('problem' in spelled) return spelled;
    out += spelled.name;
    i += name.length - 1;
  }
  return { formula: out };
}

function functionSpelling(name: string, mends?: string[]): { name: string } | { problem: string } {
  const upper = name.toUpperCase();
  const bare = upper.replace(/^(_XLFN\.)?(_XLWS\.)?/, '');
  if (EXCEL_FUNCTIONS.has(bare)) return { name: bare };
  if (PREFIXED_FUNCTIONS.has(bare)) return { name: `_xlfn.${bare}` };
  if (WORKSHEET_PREFIXED_FUNCTIONS.has(bare)) return { name: `_xlfn._xlws.${bare}` };
  if (UNAVAILABLE_FUNCTIONS.has(bare))
    return {
      problem: `${name} is not available here (the workbook is calculated by LibreOffice 25.2, which lacks it); use functions such as INDEX/MATCH, XLOOKUP, FILTER, SUMIFS or SUMPRODUCT`,
    };
  const near = nearestFunction(bare);
  if (near && mends) {
    mends.push(`read ${bare} as ${near}`);
    return functionSpelling(near);
  }
  return { problem: `${name} is not an Excel function${near ? ` (did you mean ${near}?)` : ''}` };
}

/** The known function a misspelled name most likely meant: the shortest one it begins, else one or two edits away. */
function nearestFunction(name: string): string | undefined {
  const known = [...EXCEL_FUNCTIONS, ...PREFIXED_FUNCTIONS];
  const extended = known.filter((k) => k.startsWith(name)).sort((a, b) => a.length - b.length)[0];
  if (extended) return extended;
  let best: { name: string; distance: number } | undefined;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d <= 2 && (!best || d < best.distance)) best = { name: k, distance: d };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** Each sheet reference of the formula (outside text): the sheet's name and where `Name!` / `'Name'!` starts and ends. */
export function sheetReferenceSpans(formula: string): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  const unquoted = /^([A-Za-z_\u00C0-\uFFFF][\w.\u00C0-\uFFFF]*)!/;
  for (let i = 1; i < formula.length; i++) {
    const c = formula[i];
    if (c === '"') {
      let j = i + 1;
      while (j < formula.length && !(formula[j] === '"' && formula[j + 1] !== '"')) j += formula[j] === '"' ? 2 : 1;
      i = j; // past the closing quote ("" inside text skipped in pairs)
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let name = '';
      while (j < formula.length) {
        if (formula[j] === "'" && formula[j + 1] === "'") {
          name += "'";
          j += 2;
        } else if (formula[j] === "'") break;
        else name += formula[j++];
      }
      if (formula[j + 1] === '!') out.push({ name, start: i, end: j + 2 });
      i = j;
      continue;
    }
    if (/[A-Za-z0-9_.$:]/.test(formula[i - 1])) continue;
    const m = unquoted.exec(formula.slice(i));
    if (m) {
      out.push({ name: m[1], start: i, end: i + m[0].length });
      i += m[0].length - 1;
    }
  }
  return out;
}
