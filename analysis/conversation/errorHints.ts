/**
 * What a failed python_execute call's error usually means, for the pandas mistakes the embedded models make, shown with
 * the error (`hint`): a bare traceback is often answered with the same code (the 1.5B's a15 second program sent
 * `ma.loc[last_date]` three times on `KeyError: '2024-02-29'`; checked_vote measured the same for openpyxl). Each hint
 * names the working idiom; the first pattern matching the error's text wins.
 */
const KEY_ERROR = /^KeyError: (.+)$/m;

const HINTS: Array<{ pattern: RegExp; hint: (match: RegExpExecArray) => string; also?: RegExp }> = [
  {
    // A label looked up in a RangeIndex (rows numbered 0, 1, …): the failing line (.loc) or pandas' frame says so.
    pattern: KEY_ERROR,
    also: /\.loc\[|indexes[/\\]range\.py/,
    hint: (m) =>
      `${m[1]} is not a label of the index: after read_csv the rows are numbered 0, 1, 2, … and no column's values are labels. Take a row by position (s.iloc[-1] is the last one), or select by a column's value (df.loc[df['date'] == value, 'price']), or set_index('date') first.`,
  },
  {
    // A column name that is not one (pandas' get_loc on the columns).
    pattern: KEY_ERROR,
    also: /indexes[/\\]base\.py|pandas|\[['"]/,
    hint: (m) =>
      `${m[1]} is not a column (nor an index label): use the exact column names of the data preview (print(df.columns) lists them).`,
  },
  {
    pattern: /NameError: name 'web_fetch' is not defined|No module named '(?:utils|tools|web_fetch)'/,
    hint: () =>
      'web_fetch is a tool, not a Python function or module: call the web_fetch tool and read the file it saves, or write the URL as a quoted string in your code (requests.get("https://…") or web_fetch("https://…")): such URLs are downloaded for the code before it runs.',
  },
  {
    pattern: /'(?:Axes|AxesSubplot)' object has no attribute 'savefig'/,
    hint: () => 'savefig belongs to the figure: ax.figure.savefig(path), or plt.savefig(path).',
  },
  {
    pattern:
      /Can only use \.str accessor with string values|unsupported operand type\(s\) for [^:]*: 'str' and '(?:int|float)'/,
    hint: () =>
      "the column holds text where numbers are expected (or the reverse): convert it first, pd.to_numeric(df['col'], errors='coerce'), or read the number columns as numbers.",
  },
];

/** A hint for a failed call's error text, or undefined when none of the known patterns matches. */
export function pythonErrorHint(error: string): string | undefined {
  for (const { pattern, hint, also } of HINTS) {
    const match = pattern.exec(error);
    if (match && (!also || also.test(error))) return hint(match);
  }
  return undefined;
}
