/**
 * Slips in a Python candidate that the harness mends before running it, where the fix is unambiguous
 * (checked-vote-v10). The 1.5B turns openpyxl's 1-based column numbers into letters with `chr(65 + col)`, which names
 * the column after the one meant ('B' for column 1): 79-7's candidates looped `for col in range(1, ws.max_column + 1)`
 * and wrote every cleaned value one column to the right of the answer, 3 of 4 of them, and their repairs repeated it.
 * Only a loop variable counted from 1 (or from a sheet's min_column) is mended: from 0, `chr(65 + col)` is right.
 */

/** The mended code and what was mended (empty when nothing was). */
export interface MendedCode {
  code: string;
  mends: string[];
}

const ONE_BASED_LOOP = /\bfor\s+(\w+)\s+in\s+range\(\s*(?:1\s*,|\w+\.min_column\b)/g;

export function mendPythonSlips(code: string): MendedCode {
  const mends: string[] = [];
  let out = code;
  for (const name of new Set([...code.matchAll(ONE_BASED_LOOP)].map((m) => m[1]))) {
    const offByOne = new RegExp(`chr\\(\\s*(?:65|ord\\(\\s*(['"])A\\1\\s*\\))\\s*\\+\\s*${name}\\s*\\)`, 'g');
    if (!offByOne.test(out)) continue;
    out = out.replace(offByOne, `get_column_letter(${name})`);
    mends.push(`chr(65 + ${name}) → get_column_letter(${name}): ${name} counts columns from 1`);
  }
  return { code: out, mends };
}
