/**
 * Numbers as an answer writes them (prose: `1,234.5`, `12%`, `$1.2M`, `3 million`) and as tools print them (any
 * decimal or scientific literal). Pure functions, no I/O.
 */

/** A number in the answer's prose, with what its writing says about it. */
export interface WrittenNumber {
  /** As written, suffix included: "1,234.5", "12%", "1.2M". */
  text: string;
  /** The value, scale applied (1.2M → 1200000); a percentage stays in percent (12% → 12). */
  value: number;
  /** Digits shown after the decimal point: the precision the number claims. */
  decimals: number;
  percent: boolean;
  /** 1, 1e3, 1e6 or 1e9 (k, M, B and their words). */
  scale: number;
  /** Offsets of `text` in the text scanned. */
  start: number;
  end: number;
}

const TOKEN = /[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/g;
const SUFFIX = /^(?:\s?(%|percent\b|per cent\b)|\s?(k|K|M|B|bn)(?![\p{L}\p{N}_])|\s(thousand|million|billion)\b)/u;
const SCALES: Record<string, number> = {
  k: 1e3,
  K: 1e3,
  thousand: 1e3,
  M: 1e6,
  million: 1e6,
  B: 1e9,
  bn: 1e9,
  billion: 1e9,
};
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The numbers of a markdown answer's prose, in order. Left out: code (fenced or inline),
 * link targets, URLs and HTML tags (`masked`), list and heading numbering ("1. Load"), footnote marks ("[2]"), parts
 * of identifiers, versions, dates and times ("Q3", "v1.2", "2024-01-05", "10:30"), ordinals ("3rd").
 */
export function numbersInProse(text: string, masked: Array<[number, number]> = proseMask(text)): WrittenNumber[] {
  const out: WrittenNumber[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index;
    let raw = m[0];
    const signed = raw[0] === '-' || raw[0] === '−';
    // A '-' right after a letter or digit is a hyphen ("COVID-19", "2019-2023"): the number belongs to the word.
    if (signed && start > 0 && WORD_CHAR.test(text[start - 1])) continue;
    if (inRanges(start, masked) || !standsAlone(text, start, start + raw.length)) continue;
    if (isListMarker(text, start, start + raw.length)) continue;
    const suffix = SUFFIX.exec(text.slice(start + raw.length));
    if (!suffix && WORD_CHAR.test(text[start + raw.length] ?? '')) continue;
    const fraction = /\.(\d+)$/.exec(raw)?.[1] ?? '';
    const percent = Boolean(suffix?.[1]);
    const scale = SCALES[suffix?.[2] ?? suffix?.[3] ?? ''] ?? 1;
    const magnitude = Number(raw.replace(/^[-−]/, '').replace(/,/g, ''));
    const end = start + raw.length + (suffix?.[0].length ?? 0);
    raw = text.slice(start, end);
    out.push({
      text: raw,
      value: (signed ? -magnitude : magnitude) * scale,
      decimals: fraction.length,
      percent,
      scale,
      start,
      end,
    });
  }
  return out;
}

/** Whether a token at [start, end) is a number on its own, not part of a word, version, date, time or path. */
function standsAlone(text: string, start: number, end: number): boolean {
  const before = text[start - 1] ?? '';
  const after = text[end] ?? '';
  const after2 = text[end + 1] ?? '';
  if (WORD_CHAR.test(before) || before === '.' || before === '/' || before === '\\' || before === ':') return false;
  if ((after === '-' || after === ':' || after === '/') && /\d/.test(after2)) return false;
  if (after === '.' && /[\p{L}\p{N}]/u.test(after2)) return false;
  if (before === '[' && after === ']') return false;
  return true;
}

/** "1. Load the data", "2) Compute", "## 3. Results": numbering, not a number the answer states. */
function isListMarker(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  return /^\s*(?:#+\s*)?$/.test(text.slice(lineStart, start)) && /^[.)]\s/.test(text.slice(end, end + 2));
}

function inRanges(at: number, ranges: Array<[number, number]>): boolean {
  return ranges.some(([a, b]) => at >= a && at < b);
}

/** Ranges of a markdown text that are code (the first list), or otherwise not prose: link targets, URLs, HTML tags. */
export function markdownRanges(text: string): { code: Array<[number, number]>; other: Array<[number, number]> } {
  const code = fencedBlocks(text);
  for (const m of text.matchAll(/(`+)[^`\n][\s\S]*?\1/g))
    if (!inRanges(m.index, code)) code.push([m.index, m.index + m[0].length]);
  const other: Array<[number, number]> = [];
  for (const m of text.matchAll(/\]\([^)\s]*(?:\s+"[^"]*")?\)|<\/?[A-Za-z][^>\n]*>|https?:\/\/[^\s)>\]]+/g))
    other.push([m.index, m.index + m[0].length]);
  return { code, other };
}

/** Fenced code blocks (``` or ~~~, closed by a fence of the same kind at least as long; an unclosed one runs to the end). */
function fencedBlocks(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let open: { start: number; fence: string } | undefined;
  let pos = 0;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence && !open) open = { start: pos, fence };
    else if (
      fence &&
      open &&
      fence[0] === open.fence[0] &&
      fence.length >= open.fence.length &&
      !line.slice(line.indexOf(fence) + fence.length).trim()
    ) {
      ranges.push([open.start, pos + line.length]);
      open = undefined;
    }
    pos += line.length + 1;
  }
  if (open) ranges.push([open.start, text.length]);
  return ranges;
}

function proseMask(text: string): Array<[number, number]> {
  const { code, other } = markdownRanges(text);
  return [...code, ...other];
}

/** How many numbers sit in the answer's code (not checked: code is not a claim about the data). */
export function numbersInCode(text: string): number {
  const { code } = markdownRanges(text);
  return code.reduce((n, [a, b]) => n + (text.slice(a, b).match(/\d+(?:\.\d+)?/g)?.length ?? 0), 0);
}

/** A numeric literal in tool output, with where it starts. */
export interface OutputNumber {
  value: number;
  at: number;
}

const LITERAL = /[-−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/g;
const GROUPED = /[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?/g;

/**
 * Every number a tool printed or wrote, generously: plain and scientific literals ("1.234568e+06", "-0.5"), and numbers
 * with thousands separators read both as one number and as their parts (a CSV row "10,325" may be either).
 */
export function numbersInOutput(text: string, max = Number.POSITIVE_INFINITY): OutputNumber[] {
  const out: OutputNumber[] = [];
  const add = (raw: string, at: number) => {
    const value = Number(raw.replace('−', '-').replace(/,/g, ''));
    if (Number.isFinite(value)) out.push({ value, at });
  };
  for (const m of text.matchAll(LITERAL)) {
    if (out.length >= max) return out;
    add(m[0], m.index);
  }
  for (const m of text.matchAll(GROUPED)) {
    if (out.length >= max) return out;
    add(m[0], m.index);
  }
  return out;
}
