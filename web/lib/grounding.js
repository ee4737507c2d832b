// Grounded numbers in a rendered answer: a number not found in the turn's tool outputs is highlighted, and a grounded
// one shows on hover where it came from. `locateNumbers` is pure (the tests call it); `markGrounding` applies it to HTML.
/** @import { GroundedNumber, Grounding } from '../../analysis/grounding/types' */

const WORDISH = /[\p{L}\p{N}_.]/u;
const DIGIT = /\p{N}/u;

/**
 * Where each number sits in a stream of text pieces, in answer order; a number not met is skipped (never guessed).
 * @template {{ text: string }} N
 * @param {string[]} pieces
 * @param {N[]} numbers
 * @returns {{ piece: number; start: number; end: number; number: N }[]}
 */
export function locateNumbers(pieces, numbers) {
  /** @type {{ piece: number; start: number; end: number; number: N }[]} */
  const found = [];
  let piece = 0;
  let offset = 0;
  for (const number of numbers) {
    for (let i = piece; i < pieces.length; i++) {
      const at = findStandalone(pieces[i], number.text, i === piece ? offset : 0);
      if (at < 0) continue;
      found.push({ piece: i, start: at, end: at + number.text.length, number });
      piece = i;
      offset = at + number.text.length;
      break;
    }
  }
  return found;
}

/**
 * @param {string} text
 * @param {string} needle
 * @param {number} from
 */
function findStandalone(text, needle, from) {
  for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (!WORDISH.test(text[at - 1] ?? '') && !DIGIT.test(text[at + needle.length] ?? '')) return at;
  }
  return -1;
}

/**
 * The hover text of a number: where it came from, or that it was not found.
 * @param {Pick<GroundedNumber, 'text' | 'grounded' | 'source'>} number
 */
export function sourceTitle(number) {
  const s = number.source;
  if (!number.grounded || !s) return 'Not found in any output of this turn\u2019s code or tools';
  if (s.kind === 'question') return 'Given in the question';
  /** @type {Partial<Record<string, string>>} a kind added later reads "from" */
  const whatOf = {
    stdout: 'printed by',
    table: `table ${s.file} written by`,
    file: `file ${s.file} written by`,
    calculator: 'result of',
    fetch: `fetched by`,
  };
  const what = whatOf[s.kind] ?? 'from';
  const where = [s.tool, s.stepId && `step ${s.stepId}`, s.line && `line ${s.line}`].filter(Boolean).join(', ');
  return `${what} ${where}: ${s.excerpt}`;
}

/**
 * The answer's HTML with its numbers wrapped: <mark class="num ungrounded"> or <span class="num grounded" title=…>.
 * @param {string} html
 * @param {Pick<Grounding, 'numbers'> | undefined} grounding
 */
export function markGrounding(html, grounding) {
  if (!grounding?.numbers?.length) return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  /** @type {Text[]} */
  const nodes = [];
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest('code, pre') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    nodes.push(/** @type {Text} SHOW_TEXT: text nodes only */ (n));
  // Last first, so the offsets of earlier numbers in the same text node stay right.
  for (const at of locateNumbers(
    nodes.map((n) => n.data),
    grounding.numbers,
  ).reverse()) {
    const node = nodes[at.piece];
    const rest = node.splitText(at.start);
    rest.splitText(at.end - at.start);
    const el = document.createElement(at.number.grounded ? 'span' : 'mark');
    el.className = `num ${at.number.grounded ? 'grounded' : 'ungrounded'}`;
    el.title = sourceTitle(at.number);
    el.tabIndex = 0;
    el.textContent = rest.data;
    rest.replaceWith(el);
  }
  return template.innerHTML;
}

/**
 * One line under the answer: how many of its numbers were found, or why nothing was checked.
 * @param {Pick<Grounding, 'total' | 'grounded' | 'note'> | undefined} g
 */
export function groundingSummary(g) {
  if (!g) return '';
  if (!g.total) return g.note ?? '';
  const missing = g.total - g.grounded;
  const head = `${g.grounded} of ${g.total} number${g.total === 1 ? '' : 's'} found in this turn\u2019s tool outputs`;
  return missing
    ? `${head}; ${missing} not found (marked)${g.note ? `. ${g.note}` : ''}`
    : `${head}${g.note ? `. ${g.note}` : ''}`;
}
