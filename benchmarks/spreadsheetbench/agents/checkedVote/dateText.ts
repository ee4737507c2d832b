/**
 * The Python that reads a date written as text, derived from one such text: small models call strptime with a format
 * that does not cover the text (checked-vote-v6, 416-15: "unconverted data remains: .962Z" on
 * "2021-01-18T20:57:45.962Z"), so the feedback shows the exact call for the text at hand.
 */
export interface DateTextParse {
  /** The call reading the text's date alone (its time, if any, dropped), on a variable named `text`. */
  date: string;
  /** The call reading the whole text, date and time, when the text has a time part. */
  dateTime?: string;
  /** The other reading of a text whose numbers could be day/month or month/day (03/04/2021). */
  otherReading?: string;
}

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([ T])(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z)?)?$/;
const DAY_MONTH_YEAR = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/;

/** How to parse `text` with datetime.datetime.strptime, or undefined when it is not a date shape known here. */
export function dateTextParse(text: string): DateTextParse | undefined {
  const trimmed = text.trim();
  const value = trimmed === text ? 'text' : 'text.strip()';
  const iso = ISO.exec(trimmed);
  if (iso) return isoParse(value, trimmed.length, iso);
  const dmy = DAY_MONTH_YEAR.exec(trimmed);
  if (dmy) return slashParse(value, dmy);
  return undefined;
}

/** One line for the feedback: the calls for `text`, or nothing when its shape is unknown. */
export function dateTextIdiom(text: string): string | undefined {
  const parse = dateTextParse(text);
  if (!parse) return undefined;
  const withTime = parse.dateTime ? `; with its time: ${parse.dateTime}` : '';
  const other = parse.otherReading ? ` (or ${parse.otherReading} if the month comes first)` : '';
  return `for text = ${JSON.stringify(text)}, its date is ${parse.date}${other}${withTime}`;
}

function isoParse(value: string, length: number, m: RegExpExecArray): DateTextParse {
  const dateLength = m[1].length + m[2].length + m[3].length + 2;
  const date = strptime(dateLength === length ? value : `${value}[:${dateLength}]`, '%Y-%m-%d');
  if (m[4] === undefined) return { date };
  const seconds = m[7] === undefined ? '' : ':%S';
  const fraction = m[8] === undefined ? '' : '.%f';
  const zone = m[9] === undefined ? '' : 'Z';
  return { date, dateTime: strptime(value, `%Y-%m-%d${m[4]}%H:%M${seconds}${fraction}${zone}`) };
}

/**
 * Day first when the first number cannot be a month, month first when the second cannot be; when both readings are
 * possible the text alone cannot tell: the day-first call is given with the other beside it.
 */
function slashParse(value: string, m: RegExpExecArray): DateTextParse {
  const [first, sep, second, year] = [Number(m[1]), m[2], Number(m[3]), m[4]];
  const y = year.length === 2 ? '%y' : '%Y';
  const dayFirst = strptime(value, `%d${sep}%m${sep}${y}`);
  const monthFirst = strptime(value, `%m${sep}%d${sep}${y}`);
  if (first <= 12 && second > 12) return { date: monthFirst };
  if (first > 12 || second > 12) return { date: dayFirst };
  return { date: dayFirst, otherReading: monthFirst };
}

function strptime(expression: string, format: string): string {
  return `datetime.datetime.strptime(${expression}, ${JSON.stringify(format)})`;
}
