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
  const fenced = fencedFormula(reply);
  if (finishReason === 'length' && fenced === undefined)
    return { problem: 'the reply was cut off at the token limit before a complete formula (finish_reason: length)' };
  const found = fenced ?? bareFormula(reply);
  if (found === undefined) return { problem: 'the reply holds no formula (no line starting with "=")' };
  const problem = formulaProblem(found);
  return problem ? { problem } : { formula: found };
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

function balanceProblem(formula: string): string | undefined {
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
    else if (c === ')' && --depth < 0) return 'the formula closes a parenthesis it never opened';
  }
  if (quote)
    return quote === '"'
      ? 'the formula leaves a text string unclosed (")'
      : "the formula leaves a sheet name unclosed (')";
  if (depth > 0) return `the formula leaves ${depth} parenthesis(es) unclosed`;
  return undefined;
}
