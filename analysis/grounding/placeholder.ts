/**
 * A placeholder where an answer's value should be: "[insert the count here]", "<total>", "[your result]". The 1.5B on
 * suite a09 computed `count` without printing it and answered "The number of items with a score above 250 is
 * **[insert the count here]**.": no number, so neither the grounding check nor the cross-check looked at it. Pure.
 */

/** What the value's stand-in is about: a word a placeholder names. */
const VALUE_WORD = String.raw`(?:count|number|value|result|total|sum|average|mean|answer|amount|score|percentage|here)`;
const BRACKETED = new RegExp(
  String.raw`\[(?:insert|your|the|put|add)?[^\]\n]{0,60}?\b${VALUE_WORD}\b[^\]\n]{0,40}\]`,
  'i',
);
const ANGLED = new RegExp(String.raw`<(?:insert |your |the )?[a-z _-]{0,30}\b${VALUE_WORD}\b[a-z _-]{0,30}>`, 'i');

/** The placeholder the answer holds, as written, if any (a markdown link's text "[the result](…)" is not one). */
export function answerPlaceholder(answer: string): string | undefined {
  for (const pattern of [BRACKETED, ANGLED]) {
    const m = pattern.exec(answer);
    if (m && answer[m.index + m[0].length] !== '(') return m[0];
  }
  return undefined;
}
