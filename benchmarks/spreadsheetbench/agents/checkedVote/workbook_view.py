# checked_vote: the workbook as a spreadsheet user sees it, within a character budget.
# The harness prepends INPUT_PATH, TARGETS (parsed answer_position pieces) and BUDGET (characters).
# Prints the view as plain text: per sheet its used range, merged ranges, the detected header row and table
# regions, then address-keyed cells (`A1:value | B1:=SUM(A2:A9) -> 45`); big tables are shown as head and tail
# rows plus a column profile; last, the answer region with its neighbouring columns and its current content.
import datetime
import openpyxl
from openpyxl.utils import get_column_letter

MAX_TEXT = 60
HEAD_ROWS = 12
TAIL_ROWS = 3
NEIGHBOUR_COLS = 3
TARGET_ROWS = 12
OTHER_SHEET_CHARS = 600
EXAMPLE_ROWS = 3

# Per sheet, the (row, column) cells whose row line the sheet view printed: the answer region's rows are not printed
# a second time when every non-empty cell of theirs is already in the view.
covered = {}

formulas_wb = openpyxl.load_workbook(INPUT_PATH)
values_wb = openpyxl.load_workbook(INPUT_PATH, data_only=True)


def show(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S") if (value.hour or value.minute or value.second) else value.strftime("%Y-%m-%d")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, float):
        return repr(round(value, 6))
    text = str(value).replace("\n", "\\n")
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def cell_text(fws, vws, row, col):
    raw = fws.cell(row, col).value
    raw = getattr(raw, "text", raw)  # array formulas
    if isinstance(raw, str) and raw.startswith("="):
        cached = vws.cell(row, col).value
        return raw if cached is None else f"{raw} -> {show(cached)}"
    return show(raw)


def row_line(fws, vws, row, col_start, col_end):
    parts = []
    for col in range(col_start, col_end + 1):
        text = cell_text(fws, vws, row, col)
        if text != "":
            parts.append(f"{get_column_letter(col)}{row}:{text}")
    return " | ".join(parts)


def used_bounds(ws):
    rows, cols = [], []
    for row in ws.iter_rows():
        for c in row:
            if c.value is not None and c.value != "":
                rows.append(c.row)
                cols.append(c.column)
    if not rows:
        return None
    return min(rows), max(rows), min(cols), max(cols)


def filled(ws, row, col_start, col_end):
    return [c for c in range(col_start, col_end + 1) if ws.cell(row, c).value not in (None, "")]


def regions(ws, bounds):
    """Blocks of consecutive non-empty rows (a blank row separates two tables)."""
    r0, r1, c0, c1 = bounds
    blocks, start = [], None
    for r in range(r0, r1 + 2):
        full = r <= r1 and filled(ws, r, c0, c1)
        if full and start is None:
            start = r
        elif not full and start is not None:
            cols = [c for rr in range(start, r) for c in filled(ws, rr, c0, c1)]
            blocks.append((start, r - 1, min(cols), max(cols)))
            start = None
    return blocks


def header_row(ws, block):
    """The first row of a block whose cells are mostly text and that is as wide as the rows below it."""
    r0, r1, c0, c1 = block
    width = max(len(filled(ws, r, c0, c1)) for r in range(r0, min(r1, r0 + 20) + 1))
    for r in range(r0, min(r1, r0 + 10) + 1):
        cells = [ws.cell(r, c).value for c in filled(ws, r, c0, c1)]
        texts = [v for v in cells if isinstance(v, str)]
        if len(cells) >= max(2, width * 0.6) and len(texts) >= 0.7 * len(cells):
            return r
    return None


def profile(ws, block, header):
    """One line per column of a big table: its header, kinds of values, distinct count and examples."""
    r0, r1, c0, c1 = block
    first = (header or r0 - 1) + 1
    lines = []
    for c in range(c0, c1 + 1):
        values = [ws.cell(r, c).value for r in range(first, r1 + 1)]
        present = [v for v in values if v not in (None, "")]
        if not present:
            continue
        kinds = sorted({type(v).__name__ for v in present})
        distinct = len({repr(v) for v in present})
        name = show(ws.cell(header, c).value) if header else ""
        numbers = [v for v in present if isinstance(v, (int, float)) and not isinstance(v, bool)]
        span = f", min {show(min(numbers))} max {show(max(numbers))}" if numbers else ""
        examples = ", ".join(show(v) for v in list(dict.fromkeys(present))[:3])
        lines.append(
            f"  column {get_column_letter(c)}{' ' + repr(name) if name else ''}: {len(present)} values "
            f"({'/'.join(kinds)}), {distinct} distinct{span}; e.g. {examples}"
        )
    return lines


def sheet_view(fws, vws, per_sheet_budget):
    title = f"Sheet {fws.title!r}" + (" (active)" if fws is formulas_wb.active else "")
    bounds = used_bounds(fws)
    if bounds is None:
        return [f"## {title}: empty"]
    r0, r1, c0, c1 = bounds
    ref = f"{get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1}"
    out = [f"## {title}: used range {ref} ({r1 - r0 + 1} rows x {c1 - c0 + 1} columns)"]
    merged = [str(m) for m in fws.merged_cells.ranges]
    if merged:
        out.append(f"merged: {', '.join(merged[:20])}{' …' if len(merged) > 20 else ''}")
    used = sum(len(line) + 1 for line in out)
    blocks = regions(fws, bounds)
    for index, block in enumerate(blocks):
        if used >= per_sheet_budget:
            out.append(f"… {len(blocks) - index} more table(s) below row {block[0] - 1} not shown (view budget) …")
            break
        b0, b1, bc0, bc1 = block
        header = header_row(fws, block)
        out.append(
            f"table {get_column_letter(bc0)}{b0}:{get_column_letter(bc1)}{b1}"
            + (f", header row {header}" if header else ", no header row detected")
        )
        used += len(out[-1]) + 1
        rows = list(range(b0, b1 + 1))
        shown = rows if len(rows) <= HEAD_ROWS + TAIL_ROWS else rows[:HEAD_ROWS] + rows[-TAIL_ROWS:]
        for i, r in enumerate(shown):
            if i == HEAD_ROWS and len(rows) > len(shown):
                out.append(f"… rows {rows[HEAD_ROWS]}–{rows[-TAIL_ROWS - 1]} not shown …")
            line = row_line(fws, vws, r, bc0, bc1)
            if used + len(line) > per_sheet_budget:
                out.append(f"… (view budget reached at row {r}) …")
                used = per_sheet_budget  # no further table of this sheet is shown
                break
            out.append(line)
            used += len(line) + 1
            covered.setdefault(fws.title, set()).update((r, c) for c in range(bc0, bc1 + 1))
        if len(rows) > len(shown):
            out.extend(profile(vws, block, header))
    return out


def target_view(piece):
    name = piece["sheet"] if piece["sheet"] is not None else formulas_wb.worksheets[0].title
    if name not in formulas_wb.sheetnames:
        return [f"{piece['raw']}: sheet {name!r} does not exist in the input (the program must create it)"]
    fws, vws = formulas_wb[name], values_wb[name]
    if piece["kind"] == "error":
        return [f"{piece['raw']}: {piece['error']}"]
    last_row = piece["rowEnd"] if piece["kind"] == "cells" else max(fws.max_row, 1)
    first_row = piece["rowStart"] if piece["kind"] == "cells" else 1
    c0, c1 = piece["colStart"], piece["colEnd"]
    cells = [(r, c) for r in range(first_row, last_row + 1) for c in range(c0, c1 + 1)]
    non_empty = [rc for rc in cells if fws.cell(*rc).value not in (None, "")]
    ref = f"{get_column_letter(c0)}{first_row}:{get_column_letter(c1)}{last_row}"
    out = [
        f"Answer region {name!r}!{ref}: {len(cells)} cells, {len(non_empty)} already filled"
        + (" (shown above as the input has them: the task says which to keep and which to replace)" if non_empty else " (all empty now)")
    ]
    lo, hi = max(1, c0 - NEIGHBOUR_COLS), c1 + NEIGHBOUR_COLS
    bounds = used_bounds(fws)
    header, table = None, None
    if bounds:
        for block in regions(fws, bounds):
            if block[0] <= first_row <= block[1] + 1 or block[0] <= last_row <= block[1]:
                header, table = header_row(fws, block), block
                break
    if header and first_row <= header < last_row:
        # checked-vote-v10: 230-16's candidates looped from row 1 and cut its header 'data' down to 'ata'.
        out.append(
            f"row {header} of the region is its table's header row: keep it as it is unless the task renames columns;"
            f" the data rows start at row {header + 1}"
        )
    if header and header <= last_row:
        # The region's own headers, or its table's when the region names fewer than two (a single column).
        lo_name, hi_name = (c0, c1) if len(header_names(fws, header, c0, c1)) >= 2 else (table[2], table[3])
        out.extend(example_lines(fws, vws, header, max(header + 1, first_row), lo_name, hi_name))
    rows = list(range(first_row, last_row + 1))
    shown = rows if len(rows) <= TARGET_ROWS else rows[: TARGET_ROWS - 3] + rows[-3:]
    seen = covered.get(name, set())
    if all((r, c) in seen for r in rows for c in range(lo, hi + 1) if fws.cell(r, c).value not in (None, "")):
        out.append("(its rows and neighbouring columns are shown in full in the sheet above)")
        return out
    if header and header < first_row:
        out.append(f"header row {header}: {row_line(fws, vws, header, lo, hi)}")
    for i, r in enumerate(shown):
        if i == TARGET_ROWS - 3 and len(rows) > len(shown):
            out.append("…")
        line = row_line(fws, vws, r, lo, hi)
        out.append(line if line else f"(row {r} empty in {get_column_letter(lo)}{r}:{get_column_letter(hi)}{r})")
    return out


def header_names(ws, row, c0, c1):
    """The header texts of a row between two columns, as (column, text) pairs, compared without case or spaces."""
    names = []
    for c in range(c0, c1 + 1):
        v = ws.cell(row, c).value
        if isinstance(v, str) and v.strip():
            names.append((c, v.strip().lower()))
    return names


def same_headers(fws, header, c0, c1):
    """Other places with the column headers of row `header` between c0 and c1 (another sheet, or other columns of
    this one): forum workbooks often show the expected result there ('After', 'Expected Result'; 230-16, 208-20).
    Yields (sheet, row, column offset)."""
    names = header_names(fws, header, c0, c1)
    if len(names) < 2:
        return
    first_col, first_name = names[0]
    for ws in formulas_wb.worksheets:
        for row in ws.iter_rows(max_row=min(ws.max_row, 60)):
            for cell in row:
                if not (isinstance(cell.value, str) and cell.value.strip().lower() == first_name):
                    continue
                offset = cell.column - first_col
                if ws is fws and cell.row == header and offset == 0:
                    continue
                if first_col + offset < 1:
                    continue
                if all(
                    isinstance(ws.cell(cell.row, c + offset).value, str)
                    and ws.cell(cell.row, c + offset).value.strip().lower() == n
                    for c, n in names
                ):
                    yield ws, cell.row, offset


def example_lines(fws, vws, header, data_row, c0, c1):
    """checked-vote-v12: where the region's table's headers appear again, the first rows of both side by side."""
    for ws, row, offset in same_headers(fws, header, c0, c1):
        where = f"{get_column_letter(c0 + offset)}{row}:{get_column_letter(c1 + offset)}{row}"
        out = [
            f"sheet {ws.title!r} repeats this table's column headers at {where}: it may show the result the task"
            " expects; the first rows of both, this table's then that one's:"
        ]
        for k in range(EXAMPLE_ROWS):
            mine = row_line(fws, vws, data_row + k, c0, c1)
            theirs = row_line(ws, values_wb[ws.title], row + 1 + (data_row - header - 1) + k, c0 + offset, c1 + offset)
            if mine or theirs:
                out.append(f"  {mine or '(empty)'}  =>  {theirs or '(empty)'}")
        return out
    return []


def main():
    lines = [f"Workbook: {len(formulas_wb.sheetnames)} sheet(s): {', '.join(repr(n) for n in formulas_wb.sheetnames)}"]
    target_lines = ["", "# Answer region (the cells that are checked) with neighbouring columns"]
    for piece in TARGETS:
        target_lines.extend(target_view(piece))
    reserved = sum(len(line) + 1 for line in target_lines)
    first = formulas_wb.worksheets[0].title
    answer_sheets = {piece["sheet"] if piece["sheet"] is not None else first for piece in TARGETS}
    sheets = formulas_wb.worksheets
    others = [ws for ws in sheets if ws.title not in answer_sheets]
    # The answer's sheets get most of the budget; every other sheet a share of at most OTHER_SHEET_CHARS.
    other_share = min(OTHER_SHEET_CHARS, max(300, (BUDGET - reserved) // (2 * len(sheets))))
    answer_share = max(600, (BUDGET - reserved - other_share * len(others)) // max(1, len(sheets) - len(others)))
    for fws in sheets:
        lines.append("")
        share = other_share if fws in others else answer_share
        lines.extend(sheet_view(fws, values_wb[fws.title], share))
    # Again, now that the sheets are shown: rows already in full above are not repeated.
    target_lines = target_lines[:2]
    for piece in TARGETS:
        target_lines.extend(target_view(piece))
    print("\n".join(lines + target_lines))


main()
