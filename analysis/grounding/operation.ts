/**
 * A check of the operation against the question: a question asking for a total or an average (per group or not)
 * whose code only counted rows (`value_counts`, `.count()`, `.size()`, `len(...)`) computed something, but not what
 * was asked. Grounding cannot see this (the counts are in the tool output), so it is checked on its own.
 */

/** Words that ask for a sum or a mean of a measure. */
const ASKS_AGGREGATE = /\b(total|totals|sum|sums|summed|average|averages|mean|avg)\b/i;
/** Words that ask for a count, where counting rows is the right operation. */
const ASKS_COUNT = /\b(how many|number of|count|counts|frequency|frequencies|occurrences|rows)\b/i;
/** Row-counting operations in pandas or plain Python. */
const COUNTS_ROWS = /\.value_counts\s*\(|\.count\s*\(|\.size\s*\(|\blen\s*\(|\.nunique\s*\(|Counter\s*\(/;
/** Operations that sum or average a measure. */
const AGGREGATES =
  /\.sum\s*\(|\.mean\s*\(|\.median\s*\(|\bsum\s*\(|\bmean\b|'sum'|"sum"|'mean'|"mean"|np\.average|\.agg\s*\(|\.aggregate\s*\(|pivot_table/;

/** A sum or mean taken of counts (`value_counts().sum()`): still a count of rows, not a total of a measure. */
const SUM_OF_COUNTS = /(\.value_counts|\.count|\.size|\.nunique)\s*\([^)]*\)\s*\.(?:sum|mean)\s*\(/g;

/** Words that ask for distinct values, where the number of rows is not the answer. */
const ASKS_DISTINCT = /\b(distinct|unique|different)\b/i;
/** Operations that keep each value once. */
const DEDUPLICATES =
  /\.nunique\s*\(|\.unique\s*\(|\.drop_duplicates\s*\(|\bset\s*\(|\.value_counts\s*\(|\.groupby\s*\(/;
/** Counting all rows. */
const COUNTS_ALL_ROWS = /\blen\s*\(|\.count\s*\(|\.size\b|\.shape\b/;

export interface OperationMismatch {
  /** What the question asked for, as the question worded it. */
  asked: string;
  /** The counting operation the code used. */
  used: string;
  /** A total or mean answered with a row count, or distinct values answered with the number of rows. */
  kind: 'aggregate' | 'distinct';
}

/**
 * The mismatch when the question asks for a total/average and the turn's code only counted rows, or asks how many
 * distinct values there are and the code counted every row without de-duplicating; else undefined.
 */
export function operationMismatch(question: string, codes: string[]): OperationMismatch | undefined {
  return aggregateMismatch(question, codes) ?? distinctMismatch(question, codes);
}

function distinctMismatch(question: string, codes: string[]): OperationMismatch | undefined {
  const asked = ASKS_DISTINCT.exec(question)?.[0];
  if (!asked || !ASKS_COUNT.test(question) || !codes.length) return undefined;
  const code = codes.join('\n');
  const used = COUNTS_ALL_ROWS.exec(code)?.[0];
  if (!used || DEDUPLICATES.test(code)) return undefined;
  return {
    asked: `number of ${asked.toLowerCase()} values`,
    used: used.replace(/\s*\($/, '').replace(/^\./, ''),
    kind: 'distinct',
  };
}

function aggregateMismatch(question: string, codes: string[]): OperationMismatch | undefined {
  const asked = ASKS_AGGREGATE.exec(question)?.[0];
  if (!asked || ASKS_COUNT.test(question) || !codes.length) return undefined;
  const code = codes.join('\n');
  const used = COUNTS_ROWS.exec(code)?.[0];
  if (!used || AGGREGATES.test(code.replace(SUM_OF_COUNTS, '$1('))) return undefined;
  return { asked, used: used.replace(/\s*\($/, '').replace(/^\./, ''), kind: 'aggregate' };
}
