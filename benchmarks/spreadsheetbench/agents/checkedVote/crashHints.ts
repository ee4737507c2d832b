/**
 * What a Python candidate's crash usually means, for the errors small models make with openpyxl (seen in
 * checked-vote-v4's dev20 replies: the bare traceback alone was answered with the same code in ~40% of repairs). Each
 * hint names the working openpyxl idiom; the first pattern matching the traceback's text wins.
 */
const HINTS: { pattern: RegExp; hint: string }[] = [
  {
    pattern: /'Worksheet' object has no attribute 'sort'/,
    hint: 'openpyxl cannot sort a sheet. Read the rows into a list (rows = [list(r) for r in ws.iter_rows(min_row=2, values_only=True)]), sort it with sorted(rows, key=...), then write the values back cell by cell with ws.cell(row=r, column=c).value = v.',
  },
  {
    pattern: /'tuple' object has no attribute '(value|row|column)'/,
    hint: "ws['A1:C9'], ws['A'] and ws.iter_rows() give tuples of cells (one tuple per row): loop over the cells in each tuple, or read one cell with ws.cell(row=r, column=c).value.",
  },
  {
    pattern: /'(MergedCell)' object attribute 'value' is read-only/,
    hint: 'the cell is inside a merged range: write to the top-left cell of the merge only.',
  },
  {
    pattern:
      /'NoneType' object is not subscriptable|expected string or bytes-like object, got 'NoneType'|'NoneType' object has no attribute|unsupported operand type\(s\) for .*'NoneType'/,
    hint: 'an empty cell reads as None: skip empty cells (if value is None: continue) or treat them as 0 / "" before using the value.',
  },
  {
    pattern:
      /'(datetime\.datetime|datetime\.date|datetime\.time|int|float|bool)' object (is not subscriptable|has no attribute '(strip|split|replace|lower|upper|startswith|endswith|isalpha|isdigit|isnumeric|find|index)')|(argument|expected string or bytes-like object, got) '(datetime|int|float)'/,
    hint: 'the cell holds a date or a number, not text (openpyxl reads dates as datetime.datetime, numbers as int/float): test isinstance(value, str) before using text operations on a value, and leave or convert the other values.',
  },
  {
    pattern: /'[<>]=?' not supported between instances of '[\w.]+' and '[\w.]+'/,
    hint: 'the values compared or sorted are of different kinds, or empty (None): skip the rows without a value, or sort with a key that puts them last, e.g. sorted(rows, key=lambda r: (r[i] is None, r[i] if r[i] is not None else 0)).',
  },
  {
    pattern: /KeyError: 'Worksheet (.*) does not exist/,
    hint: "use one of the workbook's sheet names exactly as the workbook view shows them (wb.sheetnames lists them).",
  },
  {
    pattern: /IndexError: (list|tuple) index out of range/,
    hint: 'a list or row is shorter than the code assumes: check its length, and remember that ws.cell() is 1-based while Python lists are 0-based.',
  },
  {
    pattern: /ValueError: Row or column values must be at least 1/,
    hint: 'ws.cell(row=..., column=...) counts from 1, not 0.',
  },
];

/** A hint for a crash's traceback, or undefined when none of the known patterns matches. */
export function crashHint(traceback: string): string | undefined {
  return HINTS.find((h) => h.pattern.test(traceback))?.hint;
}
