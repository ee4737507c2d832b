/** One function call in a formula: its name (upper case, without `_xlfn.`/`_xlws.` prefixes) and arguments as written. */
export interface FormulaCall {
  name: string;
  /** The call as written, e.g. `MATCH(D2,Data!$A$2:$A$6,0)`. */
  text: string;
  /** Top-level arguments, trimmed (commas inside nested calls, "text" or 'sheet names' do not split). */
  args: string[];
}

const NAME = /[A-Za-z_][\w.]*$/;

/**
 * Every function call of a formula, outer calls before the calls nested in them. A formula the model wrote may be
 * unbalanced (the mend step refuses most of those): an unclosed call is left out.
 */
export function callsOf(formula: string): FormulaCall[] {
  const calls: { name: string; start: number; args: string[]; argStart: number }[] = [];
  const found: { at: number; call: FormulaCall }[] = [];
  let quote: string | undefined;
  for (let i = 0; i < formula.length; i++) {
    const ch = formula[i];
    if (quote) {
      if (ch !== quote) continue;
      if (formula[i + 1] === quote)
        i++; // "" inside text, '' inside a sheet name
      else quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') {
      const name = NAME.exec(formula.slice(0, i))?.[0];
      calls.push({ name: name ?? '', start: i - (name?.length ?? 0), args: [], argStart: i + 1 });
    } else if (ch === ',' && calls.length) {
      const open = calls[calls.length - 1];
      open.args.push(formula.slice(open.argStart, i).trim());
      open.argStart = i + 1;
    } else if (ch === ')' && calls.length) {
      const open = calls.pop()!;
      const last = formula.slice(open.argStart, i).trim();
      const args = open.args.length || last ? [...open.args, last] : [];
      if (open.name)
        found.push({
          at: open.start,
          call: { name: bareName(open.name), text: formula.slice(open.start, i + 1), args },
        });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.call);
}

function bareName(name: string): string {
  return name.replace(/^(_xlfn\.)?(_xlws\.)?/i, '').toUpperCase();
}
