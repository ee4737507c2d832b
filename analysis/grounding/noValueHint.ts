/**
 * Why a computed table or value holds nothing (NaN, empty), when the code shows a usual cause: a rolling window over
 * fewer rows than its size (the 1.5B's a15 filtered the rows to the last date, then took a 7-row rolling mean of the
 * one row left: NaN, answered as an invented 102.67), or an aggregate over a selection that kept no row. Said where the
 * model reads its empty result (python_execute's savedData, the request to revise); undefined when the code shows none.
 */
export function noValueHint(code: string): string | undefined {
  const window = /\.rolling\(\s*(?:window\s*=\s*)?(\d+)/.exec(code)?.[1];
  if (window)
    return `rolling(${window}) gives NaN until ${window} rows are in the window, so rows selected first (one date, a filter) leave it empty: compute the rolling value over the whole column (in date order) first, then take the row you need (.iloc[-1] for the last).`;
  if (/\[\s*\w+\[\s*['"][^'"]+['"]\s*\]\s*==/.test(code))
    return 'the rows you selected may be none or too few for the computation: print how many rows the selection keeps, or compute over the whole column first and select afterwards.';
  return undefined;
}
