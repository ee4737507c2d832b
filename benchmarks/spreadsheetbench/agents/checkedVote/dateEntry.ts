/**
 * Excel's entry rule for a date typed as text, applied by the frame after `solve(wb)` (checked-vote-v11). In Excel, a
 * macro that writes the text "2021-01-18" into a cell stores the date 2021-01-18, and SpreadsheetBench's answers were
 * made in Excel; openpyxl stores the text. 416-15 asks to cut the time off ISO timestamps in a column of dates: the
 * 1.5B's natural `value.split("T")[0]` wrote "2021-01-18" as text, failed the `date_text` check, and its repairs
 * crashed in strptime. Only what is unambiguous is stored as a date: an ISO date alone (YYYY-MM-DD, no time: the same
 * in every locale), that the program wrote (the input's cell held something else), in a column of its sheet where
 * another cell holds a date (so a column of text that merely looks like dates, as 230-16's timestamps, stays text),
 * unless the cell is formatted as Text ('@'), which Excel leaves as typed.
 * The cell takes the number format of the column's nearest date when its own is General. What was stored is printed.
 */
export const DATE_ENTRY_PYTHON = `
_ISO_DATE = _re.compile(r'^(\\d{4})-(\\d{2})-(\\d{2})$')

def _date_columns(ws):
    found = {}
    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, (_datetime.datetime, _datetime.date)):
                found.setdefault(cell.column, []).append(cell)
    return found

def _nearest_format(cells, row):
    return min(cells, key=lambda c: abs(c.row - row)).number_format

def _store_date_entries(wb, input_path):
    """Stores ISO date text the program wrote among a column's dates as dates; returns 'Sheet!A7' names."""
    pending = []
    for ws in wb.worksheets:
        dates = None
        for row in ws.iter_rows():
            for cell in row:
                if not (isinstance(cell.value, str) and _ISO_DATE.match(cell.value)):
                    continue
                dates = _date_columns(ws) if dates is None else dates
                if cell.column in dates:
                    pending.append((ws, cell, dates[cell.column]))
    if not pending:
        return []
    before = _openpyxl.load_workbook(input_path)
    stored = []
    for ws, cell, column_dates in pending:
        old = before[ws.title][cell.coordinate].value if ws.title in before.sheetnames else None
        # A cell formatted as Text keeps what is typed into it, in Excel too.
        if old == cell.value or cell.number_format == '@':
            continue
        y, m, d = (int(part) for part in _ISO_DATE.match(cell.value).groups())
        try:
            value = _datetime.datetime(y, m, d)
        except ValueError:
            continue
        cell.value = value
        if cell.number_format == 'General':
            cell.number_format = _nearest_format(column_dates, cell.row)
        stored.append(f'{ws.title}!{cell.coordinate}')
    return stored
`;

/** The frame's lines that apply the rule to `_wb` and say what they stored. */
export const DATE_ENTRY_CALL = [
  '_stored = _store_date_entries(_wb, INPUT_PATH)',
  'if _stored:',
  '    print(f\'sheetbench: {len(_stored)} date text(s) stored as dates, as Excel enters them: {", ".join(_stored[:5])}\')',
];
