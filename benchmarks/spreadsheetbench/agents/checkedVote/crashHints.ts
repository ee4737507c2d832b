import { dateTextIdiom } from './dateText';

/**
 * What a Python candidate's crash usually means, for the errors small models make with openpyxl (seen in
 * checked-vote-v4's dev20 replies: the bare traceback alone was answered with the same code in ~40% of repairs). Each
 * hint names the working openpyxl idiom, addressing cells by column letter as the prompt's rules do; the first
 * pattern matching the traceback's text wins. A hint may be built from the match (the text strptime could not read).
 */
/** Sorting a table with the frame's table helpers (tableHelpers.ts). */
const SORT_IDIOM =
  'openpyxl cannot sort cells. Use the ready helpers (no import): rows = read_table(ws, "A3:F37") gives the values as a list of rows; sort it, e.g. rows.sort(key=lambda r: (r[4] is None, r[4] or 0), reverse=True) for column E (index 4, counted from the first column of the range); then write_table(ws, "A3", rows) writes it back.';

const HINTS: { pattern: RegExp; hint: string | ((match: RegExpExecArray) => string) }[] = [
  {
    pattern: /'Worksheet' object has no attribute 'sort'/,
    hint: SORT_IDIOM,
  },
  {
    pattern: /'tuple' object has no attribute 'sort'/,
    hint: `ws["A1:F37"] is a tuple of cell tuples, not a list. ${SORT_IDIOM}`,
  },
  {
    pattern:
      /'tuple' object has no attribute '\w+'|tuple indices must be integers or slices|'generator' object is not subscriptable/,
    hint: 'ws["A2:C9"], ws["A"] and ws.iter_rows() give tuples of cells, one tuple per row (ws.iter_rows() and ws.rows are generators: list(...) them first); a tuple is not a cell, a list or a range. Loop over the row numbers and read one cell at a time: for row in range(2, ws.max_row + 1): value = ws[f"A{row}"].value',
  },
  {
    pattern:
      /'Cell' object is not subscriptable|got 'Cell'|Cannot convert <(Merged)?Cell .*> to Excel|'(Merged)?Cell' object has no attribute '(?!value)\w+'/,
    hint: 'a Cell is not its value: read ws["A2"].value (text, number, date or None) and write plain values, ws["B2"] = ws["A2"].value, never the Cell itself.',
  },
  {
    pattern: /ValueError: (.+) is not a valid coordinate or range/,
    hint: (m) =>
      `ws[...] takes a cell address ("B2"), a range ("A2:C9") or a column letter ("B"); ${JSON.stringify(m[1])} is none of these. A sheet is wb[name] (names as the workbook view shows them); to find a column by its header text, loop over the header row: col = next(c.column_letter for c in ws[1] if c.value == "Header") (1 = the header's row).`,
  },
  {
    pattern: /time data '(.*)' does not match format|unconverted data remains/,
    hint: (m) => {
      const idiom = m[1] === undefined ? undefined : dateTextIdiom(m[1]);
      return `strptime's format must match the text exactly, to its last character: ${idiom ?? 'for text = "2021-01-18T20:57:45.962Z", its date is datetime.datetime.strptime(text[:10], "%Y-%m-%d")'}. Test isinstance(value, str) first: cells already holding dates are datetime.datetime values.`;
    },
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
    hint: 'a list or row is shorter than the code assumes: check its length, and remember that rows are numbered from 1 while Python lists count from 0.',
  },
  {
    pattern: /expected <class 'openpyxl\.styles\.fills\.Fill'>|Colors must be aRGB hex values/,
    hint: 'a fill is a PatternFill with an aRGB hex colour, not a colour name: from openpyxl.styles import PatternFill, then ws["A2"].fill = PatternFill(start_color="FFFFFF00", end_color="FFFFFF00", fill_type="solid") (yellow; FFFFFFFF is white). The cell keeps its value.',
  },
  {
    pattern: /ValueError: Row or column values must be at least 1/,
    hint: 'ws.cell(row=..., column=...) counts from 1, not 0.',
  },
];

/** A hint for a crash's traceback, or undefined when none of the known patterns matches. */
export function crashHint(traceback: string): string | undefined {
  for (const { pattern, hint } of HINTS) {
    const match = pattern.exec(traceback);
    if (match) return typeof hint === 'string' ? hint : hint(match);
  }
  return undefined;
}
