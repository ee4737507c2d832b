/**
 * A cell's value as Excel shows it under its number format: General, fixed decimals, thousands separators, percent,
 * scientific, currency and literal text, sections for negative/zero/text, and date/time codes. Covers what answer
 * ranges use; an exotic code (fractions, conditions) falls back to General rather than guessing.
 */
import type { CellValue, PyDate, PyDateTime, PyTime, PyTimedelta } from '../../workbook/cellValue';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function formatCell(value: CellValue, code: string): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return formatText(value, code);
  if (typeof value === 'number') return formatNumber(value, code);
  switch (value.kind) {
    case 'datetime':
    case 'date':
    case 'time':
      return formatDate(value, code);
    case 'timedelta':
      return formatElapsed(value, code);
  }
}

/** Sections split on `;` outside quotes, brackets and escapes. */
function sections(code: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let bracket = false;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\\' && !quoted) {
      current += ch + (code[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '[') bracket = true;
    else if (!quoted && ch === ']') bracket = false;
    if (ch === ';' && !quoted && !bracket) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

function formatText(text: string, code: string): string {
  const parts = sections(code);
  const textSection = parts.length >= 4 ? parts[3] : parts.find((p) => p.includes('@'));
  if (!textSection) return text;
  return literal(textSection, (token) => (token === '@' ? text : undefined));
}

/** Walks a section: quoted text, escapes, `_x` (a space), `*x` (fill: dropped), `[$€-407]` (the currency), [colours]. */
function literal(section: string, placeholder: (token: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < section.length; i++) {
    const ch = section[i];
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      out += section.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? section.length : end;
    } else if (ch === '\\') out += section[++i] ?? '';
    else if (ch === '_') {
      out += ' ';
      i++;
    } else if (ch === '*') i++;
    else if (ch === '[') {
      const end = section.indexOf(']', i);
      const inner = section.slice(i + 1, end < 0 ? undefined : end);
      if (inner.startsWith('$')) out += inner.slice(1).split('-')[0];
      i = end < 0 ? section.length : end;
    } else out += placeholder(ch) ?? ch;
  }
  return out;
}

/** Excel's General: up to 11 characters; integers as they are, others rounded to fit, scientific when large or tiny. */
export function generalNumber(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '#NUM!' : '#NUM!';
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 1e11 || abs < 1e-9) {
    const [mantissa, exp] = n.toExponential(5).split('e');
    const trimmed = mantissa.replace(/\.?0+$/, '');
    const e = Number(exp);
    return `${trimmed}E${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (Number.isInteger(n)) return String(n);
  const intDigits = Math.max(1, Math.floor(Math.log10(abs)) + 1);
  const room = Math.max(0, 10 - intDigits - (n < 0 ? 1 : 0));
  return String(Number(n.toFixed(Math.min(room, 15))));
}

const NUMBER_TOKENS = /[0#?]/;

function formatNumber(n: number, code: string): string {
  const parts = sections(code);
  let section = parts[0];
  let value = n;
  if (n < 0 && parts.length >= 2 && parts[1] !== '') {
    section = parts[1]!;
    value = -n;
  } else if (n === 0 && parts.length >= 3 && parts[2] !== '') section = parts[2]!;
  const tokens = stripLiterals(section);
  if (/general/i.test(tokens))
    return literal(replaceTokens(section, /^general/i, '\u0000'), (t) =>
      t === '\u0000' ? generalNumber(value) : undefined,
    );
  if (!NUMBER_TOKENS.test(tokens)) return literal(section, () => undefined);
  // Fractions are rare in answer ranges: shown as General rather than guessed.
  if (/[0#?]\s*\/\s*[0-9#?]/.test(tokens)) return generalNumber(n);
  return formatDigits(value, section);
}

/** The section without quoted text, escapes and brackets: what is left are the format's own tokens. */
function stripLiterals(section: string): string {
  return section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/[_*]./g, '');
}

/** A digit pattern: integer and decimal placeholders, thousands separators, scaling commas, %, E+ scientific. */
function formatDigits(value: number, section: string): string {
  const tokens = stripLiterals(section);
  const percents = (tokens.match(/%/g) ?? []).length;
  let v = value * 100 ** percents;
  const sci = /[eE][+-]/.exec(tokens);
  const numberPart = /[0#?,.]+(?:[eE][+-][0#]+)?/.exec(tokens)?.[0] ?? '0';
  const [intPattern, decPattern = ''] = numberPart.replace(/[eE][+-][0#]+$/, '').split('.');
  const scaleCommas = /,+$/.exec(intPattern)?.[0].length ?? 0;
  v /= 1000 ** scaleCommas;
  const grouping = intPattern.replace(/,+$/, '').includes(',');
  const decimals = decPattern.replace(/[^0#?]/g, '').length;
  const minDecimals = decPattern.replace(/[^0]/g, '').length;
  let digits: string;
  if (sci) {
    const exp = v === 0 ? 0 : Math.floor(Math.log10(Math.abs(v)));
    const mantissa = v / 10 ** exp;
    const expDigits = /[eE][+-]([0#]+)/.exec(numberPart)?.[1]?.length ?? 2;
    digits = `${roundDigits(mantissa, decimals, minDecimals, false, 1)}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(expDigits, '0')}`;
  } else {
    const minInt = intPattern.replace(/[^0]/g, '').length;
    digits = roundDigits(v, decimals, minDecimals, grouping, minInt);
  }
  return literal(replaceTokens(section, /^[0#?,.]+(?:[eE][+-][0#]+)?/, '\u0000'), (t) =>
    t === '\u0000' ? digits : undefined,
  );
}

/** Replaces the first match of `pattern` (anchored) that starts outside quotes, escapes and brackets. */
function replaceTokens(section: string, pattern: RegExp, by: string): string {
  for (let i = 0; i < section.length; i++) {
    const ch = section[i];
    if (ch === '"') i = section.indexOf('"', i + 1) < 0 ? section.length : section.indexOf('"', i + 1);
    else if (ch === '\\' || ch === '_' || ch === '*') i++;
    else if (ch === '[') i = section.indexOf(']', i) < 0 ? section.length : section.indexOf(']', i);
    else {
      const m = pattern.exec(section.slice(i));
      if (m) return section.slice(0, i) + by + section.slice(i + m[0].length);
    }
  }
  return section;
}

function roundDigits(v: number, decimals: number, minDecimals: number, grouping: boolean, minInt: number): string {
  const negative = v < 0;
  let [int, dec = ''] = Math.abs(v).toFixed(decimals).split('.');
  while (dec.length > minDecimals && dec.endsWith('0')) dec = dec.slice(0, -1);
  if (int === '0' && minInt === 0) int = '';
  int = int.padStart(minInt, '0');
  if (grouping) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${int}${dec ? `.${dec}` : decimals && minDecimals ? '.' : ''}`;
}

type DateLike = PyDateTime | PyDate | PyTime;

function parts(d: DateLike) {
  const hasDate = d.kind !== 'time';
  const hasTime = d.kind !== 'date';
  return {
    year: hasDate ? d.year : 1899,
    month: hasDate ? d.month : 12,
    day: hasDate ? d.day : 30,
    hour: hasTime ? d.hour : 0,
    minute: hasTime ? d.minute : 0,
    second: hasTime ? d.second : 0,
    micro: hasTime ? d.microsecond : 0,
  };
}

/** Date and time codes: y, m (month, or minutes next to h or s), d, h, s, AM/PM, fractions of a second. */
function formatDate(d: DateLike, code: string): string {
  const p = parts(d);
  const section = sections(code)[0];
  const tokens = tokenizeDate(section);
  const twelve = tokens.some((t) => t.kind === 'ampm');
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (t.kind === 'text') return out.push(t.text);
    if (t.kind === 'ampm') return out.push(t.text.length <= 3 ? (p.hour < 12 ? 'A' : 'P') : p.hour < 12 ? 'AM' : 'PM');
    const len = t.text.length;
    const ch = t.text[0].toLowerCase();
    if (ch === 'y') return out.push(len <= 2 ? String(p.year % 100).padStart(2, '0') : String(p.year));
    if (ch === 'd') {
      if (len >= 4) return out.push(DAYS[weekday(p.year, p.month, p.day)]);
      if (len === 3) return out.push(DAYS[weekday(p.year, p.month, p.day)].slice(0, 3));
      return out.push(String(p.day).padStart(len, '0'));
    }
    if (ch === 'h') {
      const h = twelve ? ((p.hour + 11) % 12) + 1 : p.hour;
      return out.push(String(h).padStart(Math.min(len, 2), '0'));
    }
    if (ch === 's') return out.push(String(p.second).padStart(Math.min(len, 2), '0'));
    if (ch === '0') return out.push(String(Math.floor(p.micro / 10 ** (6 - len))).padStart(len, '0'));
    // m: minutes right after an hour or right before a second, else the month.
    const prev = tokens
      .slice(0, i)
      .reverse()
      .find((x) => x.kind === 'code');
    const next = tokens.slice(i + 1).find((x) => x.kind === 'code');
    const minutes = (prev && /^h/i.test(prev.text)) || (next && /^s/i.test(next.text));
    if (minutes && len <= 2) return out.push(String(p.minute).padStart(len, '0'));
    if (len >= 5) return out.push(MONTHS[p.month - 1][0]);
    if (len === 4) return out.push(MONTHS[p.month - 1]);
    if (len === 3) return out.push(MONTHS[p.month - 1].slice(0, 3));
    return out.push(String(p.month).padStart(len, '0'));
  });
  return out.join('');
}

type DateToken = { kind: 'code' | 'text' | 'ampm'; text: string };

function tokenizeDate(section: string): DateToken[] {
  const tokens: DateToken[] = [];
  for (let i = 0; i < section.length;) {
    const rest = section.slice(i);
    const ampm = /^(AM\/PM|am\/pm|A\/P|a\/p)/.exec(rest);
    if (ampm) {
      tokens.push({ kind: 'ampm', text: ampm[0] });
      i += ampm[0].length;
      continue;
    }
    const run = /^([yY]+|[mM]+|[dD]+|[hH]+|[sS]+)/.exec(rest);
    if (run) {
      tokens.push({ kind: 'code', text: run[0] });
      i += run[0].length;
      continue;
    }
    const frac = /^\.(0+)/.exec(rest);
    if (frac && tokens.at(-1)?.text.match(/^s/i)) {
      tokens.push({ kind: 'text', text: '.' }, { kind: 'code', text: frac[1] });
      i += frac[0].length;
      continue;
    }
    const ch = section[i];
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      tokens.push({ kind: 'text', text: section.slice(i + 1, end < 0 ? undefined : end) });
      i = end < 0 ? section.length : end + 1;
    } else if (ch === '\\') {
      tokens.push({ kind: 'text', text: section[i + 1] ?? '' });
      i += 2;
    } else if (ch === '[') {
      const end = section.indexOf(']', i);
      i = end < 0 ? section.length : end + 1;
    } else if (ch === '_' || ch === '*') {
      if (ch === '_') tokens.push({ kind: 'text', text: ' ' });
      i += 2;
    } else {
      tokens.push({ kind: 'text', text: ch });
      i++;
    }
  }
  return tokens;
}

function weekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** `[h]:mm:ss` and friends: elapsed time. */
function formatElapsed(t: PyTimedelta, code: string): string {
  const totalSeconds = t.days * 86400 + t.seconds;
  const section = sections(code)[0];
  return section
    .replace(/\[(h+)\]/i, (_, h: string) => String(Math.floor(totalSeconds / 3600)).padStart(h.length, '0'))
    .replace(/\[(m+)\]/i, (_, m: string) => String(Math.floor(totalSeconds / 60)).padStart(m.length, '0'))
    .replace(/(?<=:)mm/i, String(Math.floor((totalSeconds % 3600) / 60)).padStart(2, '0'))
    .replace(/(?<=:)ss/i, String(totalSeconds % 60).padStart(2, '0'))
    .replace(/"/g, '');
}
