import { unknownNames, unknownNamesProblem } from './formulaNames';
import { formulaBalance, formulaProblem, normalizeFunctions, rawFormulaOf, sheetReferenceSpans } from './formulaReply';

/** A formula the harness can write, and what it mended in the model's text to get it (each a short line for `show`). */
export interface MendedFormula {
  formula: string;
  mends: string[];
}

/** Unclosed parentheses the harness closes at the end (more means the formula is cut or muddled: fed back instead). */
const MAX_CLOSED = 2;

/**
 * The formula in a model's reply, mended where the slip is unambiguous (checked-vote-v5), or why there is none.
 * Small models write formulas that are right but for one slip; each slip, fed back as a repair, was repeated in ~40%
 * of repairs (dev20, checked-vote-v4). Mended here: `==`/`!=` (→ `=`/`<>`), up to MAX_CLOSED parentheses left open at
 * the end, `a AND b` / `a OR b` between conditions (→ AND(a,b) / OR(a,b)), a function name one the known list holds
 * one or two edits away (EOM → EOMONTH), and a sheet name that is not the workbook's but matches exactly one of its
 * sheets apart from case, spaces and punctuation, or contains or is contained in exactly one (Rates → 'Sea Freight
 * Rates'), or any name when the workbook has one sheet, or SheetN as the N-th sheet; Google Sheets' ARRAYFORMULA(x)
 * as x. Every mend is recorded; the check then judges the mended
 * formula on every input like any other, so a wrong mend fails there. A name that is neither Excel's nor one the
 * workbook defines is refused, each one named (formulaNames.ts, checked-vote-v9).
 */
export function mendedFormulaOf(
  reply: string,
  finishReason: string,
  workbook: { sheetnames: readonly string[]; definedNames: readonly string[] },
): MendedFormula | { problem: string } {
  const raw = rawFormulaOf(reply, finishReason);
  if ('problem' in raw) return raw;
  const mends: string[] = [];
  let formula = comparisonsMended(raw.formula, mends);
  formula = parenthesesClosed(formula, mends);
  const problem = formulaProblem(formula);
  if (problem) return { problem };
  formula = infixLogicMended(formula, mends);
  formula = arrayFormulaUnwrapped(formula, mends);
  const spelled = normalizeFunctions(formula, mends);
  if ('problem' in spelled) return spelled;
  const sheets = sheetsResolved(spelled.formula, workbook.sheetnames, mends);
  if ('problem' in sheets) return sheets;
  const unknown = unknownNames(sheets.formula, workbook.definedNames);
  if (unknown.length) return { problem: unknownNamesProblem(unknown, workbook.definedNames) };
  return { formula: sheets.formula, mends: [...new Set(mends)] };
}

/** Each stretch of the formula outside "text" and 'sheet names', with its start. */
function outsideQuotes(formula: string): { text: string; start: number }[] {
  const parts: { text: string; start: number }[] = [];
  let start = 0;
  let quote: string | undefined;
  for (let i = 0; i < formula.length; i++) {
    const c = formula[i];
    if (quote) {
      if (c === quote) {
        quote = undefined;
        start = i + 1;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      if (i > start) parts.push({ text: formula.slice(start, i), start });
      quote = c;
    }
  }
  if (!quote && start < formula.length) parts.push({ text: formula.slice(start), start });
  return parts;
}

/** Replaces, outside quotes, every match of `pattern` by `by`; records `mend` once when anything changed. */
function replacedOutsideQuotes(formula: string, pattern: RegExp, by: string, mend: string, mends: string[]): string {
  let out = '';
  let at = 0;
  for (const part of outsideQuotes(formula)) {
    out += formula.slice(at, part.start) + part.text.replace(pattern, by);
    at = part.start + part.text.length;
  }
  out += formula.slice(at);
  if (out !== formula) mends.push(mend);
  return out;
}

function comparisonsMended(formula: string, mends: string[]): string {
  const equal = replacedOutsideQuotes(formula, /(?<=[^<>=!])==(?!=)/g, '=', 'wrote "==" as "="', mends);
  return replacedOutsideQuotes(equal, /!=/g, '<>', 'wrote "!=" as "<>"', mends);
}

function parenthesesClosed(formula: string, mends: string[]): string {
  const balance = formulaBalance(formula);
  const count = balance.closesUnopened || balance.openQuote ? 0 : balance.open;
  if (count < 1 || count > MAX_CLOSED) return formula;
  const closed = formula + ')'.repeat(count);
  if (formulaProblem(closed) !== undefined) return formula; // something else is wrong too: nothing to mend here
  mends.push(`closed ${count} parenthesis(es) left open at the end`);
  return closed;
}

const LOGIC_WORD = /\s+(AND|OR)\s+(?!\()/i;

/** `IF(a>1 AND b<2, …)` as `IF(AND(a>1,b<2), …)`: every expression (an argument, the body) rewritten on its own. */
function infixLogicMended(formula: string, mends: string[]): string {
  const body = expressionMended(formula.slice(1));
  if (body === formula.slice(1)) return formula;
  mends.push('wrote the conditions joined by AND/OR as AND(…)/OR(…)');
  return `=${body}`;
}

function expressionMended(expression: string): string {
  const ors = splitTopLevel(expression, 'OR');
  if (ors.length > 1) return `OR(${ors.map(expressionMended).join(',')})`;
  const ands = splitTopLevel(expression, 'AND');
  if (ands.length > 1) return `AND(${ands.map(expressionMended).join(',')})`;
  return argumentsMended(expression);
}

/** The expression with each parenthesised group's comma-separated arguments mended on their own. */
function argumentsMended(expression: string): string {
  let out = '';
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === '"' || c === "'") {
      const end = closingQuote(expression, i);
      out += expression.slice(i, end + 1);
      i = end;
    } else if (c === '(') {
      const end = matchingParenthesis(expression, i);
      const inside = splitTopLevel(expression.slice(i + 1, end), ',').map(expressionMended);
      out += `(${inside.join(',')})`;
      i = end;
    } else out += c;
  }
  return out;
}

/** The expression split at `separator` (',' or a logic word between spaces) outside quotes and parentheses. */
function splitTopLevel(expression: string, separator: ',' | 'AND' | 'OR'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === '"' || c === "'") i = closingQuote(expression, i);
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && separator === ',' && c === ',') {
      parts.push(expression.slice(start, i));
      start = i + 1;
    } else if (depth === 0 && separator !== ',' && /\s/.test(c)) {
      const word = LOGIC_WORD.exec(expression.slice(i));
      if (word?.index === 0 && word[1].toUpperCase() === separator) {
        parts.push(expression.slice(start, i).trim());
        start = i + word[0].length;
        i = start - 1;
      }
    }
  }
  parts.push(separator === ',' ? expression.slice(start) : expression.slice(start).trim());
  return parts;
}

function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let j = open + 1; j < text.length; j++) {
    if (text[j] !== quote) continue;
    if (text[j + 1] === quote) j++;
    else return j;
  }
  return text.length - 1;
}

function matchingParenthesis(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    const c = text[j];
    if (c === '"' || c === "'") j = closingQuote(text, j);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return text.length - 1;
}

/** Sheet references resolved to the workbook's sheets where exactly one is meant, or why one cannot be. */
function sheetsResolved(
  formula: string,
  sheetnames: readonly string[],
  mends: string[],
): { formula: string } | { problem: string } {
  let out = formula;
  for (const span of sheetReferenceSpans(formula).reverse()) {
    if (sheetnames.some((s) => s.toLowerCase() === span.name.toLowerCase())) continue;
    const meant = meantSheet(span.name, sheetnames);
    if (meant === undefined)
      return {
        problem: `the formula refers to sheet '${span.name}', which this workbook does not have (its sheets: ${sheetnames.map((n) => `'${n}'`).join(', ')})`,
      };
    mends.push(`read sheet '${span.name}' as '${meant}'`);
    out = out.slice(0, span.start) + sheetReference(meant) + out.slice(span.end);
  }
  return { formula: out };
}

function meantSheet(name: string, sheetnames: readonly string[]): string | undefined {
  const key = squeezed(name);
  const same = sheetnames.filter((s) => squeezed(s) === key);
  if (same.length === 1) return same[0];
  const overlapping = sheetnames.filter((s) => {
    const other = squeezed(s);
    return key.length >= 3 && other.length >= 3 && (other.includes(key) || key.includes(other));
  });
  if (overlapping.length === 1) return overlapping[0];
  if (sheetnames.length === 1) return sheetnames[0];
  // Excel's default names count sheets: Sheet2 is the second one.
  const position = /^sheet(\d+)$/i.exec(name.trim());
  return position ? sheetnames[Number(position[1]) - 1] : undefined;
}

/**
 * Google Sheets' ARRAYFORMULA(x) as x: Excel has no such function, and the harness already writes a formula that
 * applies an operator to a range as an array formula (formulaProgram.ts).
 */
function arrayFormulaUnwrapped(formula: string, mends: string[]): string {
  let out = formula;
  for (;;) {
    const at = outsideQuotes(out)
      .map((part) => ({ part, index: part.text.search(/(?<![A-Za-z0-9_.])ARRAYFORMULA\s*\(/i) }))
      .find((p) => p.index >= 0);
    if (!at) break;
    const start = at.part.start + at.index;
    const open = out.indexOf('(', start);
    const close = matchingParenthesis(out, open);
    out = out.slice(0, start) + out.slice(open + 1, close) + out.slice(close + 1);
  }
  if (out !== formula) mends.push('dropped ARRAYFORMULA (Google Sheets), which Excel does not have');
  return out;
}

function squeezed(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** `Name!` when the name needs no quotes, else `'Name'!` (a quote inside doubled). */
function sheetReference(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? `${name}!` : `'${name.replace(/'/g, "''")}'!`;
}
