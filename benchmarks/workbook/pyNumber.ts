/**
 * Python numeric semantics the official evaluator relies on:
 * `round(x, n)` (correctly rounded, half-to-even on the exact binary double) and `float(str)` / `int(str)` acceptance rules.
 */

const TWO_52 = 2n ** 52n;

/** Exact decomposition of a finite double as mantissa × 2^exponent. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & (TWO_52 - 1n);
  if (biased === 0) return { mantissa: fraction, exponent: -1074 };
  return { mantissa: fraction | TWO_52, exponent: biased - 1075 };
}

/** Python's `round(x, ndigits)` for a float with ndigits ≥ 0: half-to-even on the exact value, then parsed back. */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0 || Number.isInteger(x)) return x;
  const fast = roundAwayFromTies(x, ndigits);
  if (fast !== undefined) return fast;
  const { mantissa, exponent } = decompose(x);
  if (exponent >= 0) return x;
  const scaled = mantissa * 10n ** BigInt(ndigits);
  const denominator = 2n ** BigInt(-exponent);
  let quotient = scaled / denominator;
  const twiceRemainder = 2n * (scaled % denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n;
  const magnitude = Number(`${quotient}e-${ndigits}`);
  return x < 0 ? -magnitude : magnitude;
}

/**
 * Fast path: when x·10^n is clearly not near a .5 tie (the product's error is far below the 1e-6 margin for
 * |x·10^n| < 1e9), rounding the product gives the same integer as exact rounding, and q / 10^n is correctly rounded.
 */
function roundAwayFromTies(x: number, ndigits: number): number | undefined {
  if (ndigits > 6) return undefined;
  const scale = 10 ** ndigits;
  const scaled = x * scale;
  if (Math.abs(scaled) >= 1e9) return undefined;
  const floor = Math.floor(scaled);
  const frac = scaled - floor;
  if (Math.abs(frac - 0.5) < 1e-6) return undefined;
  const q = frac < 0.5 ? floor : floor + 1;
  return q === 0 && x < 0 ? -0 : q / scale;
}

/** Python's round(x) to an integer (half-to-even), as used by openpyxl's from_excel. */
export function pyRoundToInt(x: number): number {
  return pyRound(x, 0);
}

/** Non-ASCII characters for which Python's str.isspace() is true (ASCII ones are kept as they are). */
const PY_SPACE = /[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const DECIMAL_DIGIT = /\p{Nd}/u;
const FLOAT_BODY = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;
const INT_BODY = /^[+-]?\d(?:_?\d)*$/;

/** Value 0–9 of a Unicode decimal digit: Nd digits come in contiguous runs of whole 0..9 sets. */
function digitValue(ch: string): number {
  let cp = ch.codePointAt(0)!;
  let offset = 0;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(cp - 1))) {
    cp -= 1;
    offset += 1;
  }
  return offset % 10;
}

/**
 * CPython's `_PyUnicode_TransformDecimalAndSpaceToASCII` + strip: Unicode digits become ASCII digits, Unicode spaces
 * become ' ', any other non-ASCII character makes the string unparseable (undefined).
 */
function asciiNumberText(s: string): string | undefined {
  let out = '';
  for (const ch of s) {
    if (ch.charCodeAt(0) < 128) out += ch;
    else if (PY_SPACE.test(ch)) out += ' ';
    else if (DECIMAL_DIGIT.test(ch)) out += String(digitValue(ch));
    else return undefined;
  }
  return out.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
}

/** Python `float(s)`; undefined where Python raises ValueError. */
export function pyFloat(s: string): number | undefined {
  const text = asciiNumberText(s);
  if (text === undefined) return undefined;
  const special = SPECIAL_FLOAT.exec(text);
  if (special) {
    if (special[2].toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!FLOAT_BODY.test(text)) return undefined;
  return Number(text.replace(/_/g, ''));
}

/** Python `int(s)` converted to a double (as `float(int(s))` would be); undefined where Python raises. */
export function pyIntAsFloat(s: string): number | undefined {
  const text = asciiNumberText(s);
  if (text === undefined || !INT_BODY.test(text)) return undefined;
  return Number(BigInt(text.replace(/_/g, '')));
}

/** Python `str.isdigit()` for one character (decimal digits plus superscripts and other Numeric_Type=Digit chars). */
export function pyIsDigit(ch: string): boolean {
  return (
    DECIMAL_DIGIT.test(ch) ||
    /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u1369-\u1371\u19da]/u.test(
      ch,
    )
  );
}

/** Python `int(s)` on the digit string collected by the official range parser; throws like Python on failure. */
export function pyIntStrict(s: string): number {
  const value = pyIntAsFloat(s);
  if (value === undefined) throw new Error(`invalid literal for int() with base 10: '${s}'`);
  return value;
}
