# SheetCopilot stage 1: the fixed observation program (no LLM). Runs inside the sandbox on one test-case input.
# The harness prepends INPUT_PATH, TARGETS (answer_position pieces parsed in TypeScript with the quote repair, one entry
# per comma-separated piece) and INSTRUCTION_TYPE. Prints a plain-text report that every later stage gets in full.
import re
import openpyxl
from openpyxl.utils import get_column_letter

# Bounds of the report's excerpts. Every later stage gets the report in full, so it must stay short whatever the
# workbook's size. Where the reference fork (lowl6/SpreadsheetBench, SheetCopilot v2's stage 1) has a bound, it is its.
MAX_ROWS_SHOWN = 20  # a target of more rows is shown as its head and tail: where a column's pattern starts and ends
HEAD_ROWS_SHOWN = 10
TAIL_ROWS_SHOWN = 5
MAX_CELLS_SHOWN = 10  # answer cells whose current content is described one by one
MERGED_RANGES_LISTED = 20  # per sheet, in the structure overview
MERGED_RANGES_AT_TARGET = 10  # merged ranges touching the target's columns
LEFT_COLUMNS_SHOWN = 3  # columns left of the target, where the inputs of a row-wise answer usually are
LEFT_ROWS_SHOWN = 5  # ... for the target's first rows only
FORMULA_EXAMPLES = 2  # existing answer formulas shown as the pattern to follow
REFERENCES_PER_FORMULA = 5  # cells an example formula references, described with their type and format
wb = openpyxl.load_workbook(INPUT_PATH)  # formulas, not cached values: the model must see how answers are built
print("=== WORKBOOK STRUCTURE ===")
print(f"Sheets: {wb.sheetnames}")
print(f"Active sheet: {wb.active.title}")


def true_bounds(ws):
    rows, cols = [], []
    for row in ws.iter_rows():
        for c in row:
            if c.value is not None:
                rows.append(c.row)
                cols.append(c.column)
    if not rows:
        return None
    return min(rows), max(rows), min(cols), max(cols)


for ws in wb.worksheets:
    b = true_bounds(ws)
    extent = f"max_row={ws.max_row} x max_column={ws.max_column}"
    if b is None:
        print(f"- '{ws.title}': {extent}; no data")
    else:
        r0, r1, c0, c1 = b
        print(f"- '{ws.title}': {extent}; data in {get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1} "
              f"(rows {r0}-{r1}, columns {get_column_letter(c0)}-{get_column_letter(c1)})")
    if ws.merged_cells.ranges:
        print(f"  merged cells: {[str(r) for r in ws.merged_cells.ranges][:MERGED_RANGES_LISTED]}")


def formula_text(v):
    """Formula text of a cell value (array formulas are objects with .text), else None."""
    text = getattr(v, "text", v)
    return text if isinstance(text, str) and text.startswith("=") else None


def describe(cell):
    v = cell.value
    if formula_text(v):
        return f"FORMULA = {formula_text(v)}"
    if v is None:
        return "EMPTY"
    return f"VALUE = {v!r} ({type(v).__name__}, format {cell.number_format!r})"


def target_sheet(piece):
    if piece["sheet"] is None:
        return wb.worksheets[0], "unqualified: assuming the first sheet"
    if piece["sheet"] in wb.sheetnames:
        return wb[piece["sheet"]], None
    return None, f"sheet '{piece['sheet']}' does not exist in the input (the solution must create it)"


def target_rows(ws, piece):
    if piece["kind"] == "columns":
        return range(1, ws.max_row + 1), range(piece["colStart"], piece["colEnd"] + 1)
    return range(piece["rowStart"], piece["rowEnd"] + 1), range(piece["colStart"], piece["colEnd"] + 1)


print("\n=== ANSWER POSITION ===")
print(f"Instruction type: {INSTRUCTION_TYPE}")
formulas_seen, values_seen = [], []
for piece in TARGETS:
    print(f"\nTarget piece {piece['raw']!r}:")
    if piece["kind"] == "error":
        print(f"  cannot be read as a range ({piece['error']})")
        continue
    ws, note = target_sheet(piece)
    if note:
        print(f"  {note}")
    if ws is None:
        continue
    rows, cols = target_rows(ws, piece)
    rows = list(rows)
    shown = rows if len(rows) <= MAX_ROWS_SHOWN else rows[:HEAD_ROWS_SHOWN] + rows[-TAIL_ROWS_SHOWN:]
    print(f"  sheet '{ws.title}', rows {rows[0] if rows else '-'}..{rows[-1] if rows else '-'}, "
          f"columns {get_column_letter(cols[0])}..{get_column_letter(cols[-1])}")
    for r in shown:
        line = ", ".join(f"{get_column_letter(c)}{r}={formula_text(ws.cell(r, c).value) or ws.cell(r, c).value!r}" for c in cols)
        print(f"  row {r}: {line}")
        if len(rows) > MAX_ROWS_SHOWN and r == rows[HEAD_ROWS_SHOWN - 1]:
            print(f"  ... ({len(rows) - HEAD_ROWS_SHOWN - TAIL_ROWS_SHOWN} rows omitted)")
    left = [c for c in range(max(1, cols[0] - LEFT_COLUMNS_SHOWN), cols[0])]
    if left:
        print(f"  columns left of the target (first {LEFT_ROWS_SHOWN} rows):")
        for r in rows[:LEFT_ROWS_SHOWN]:
            print("   " + ", ".join(f"{get_column_letter(c)}{r}={ws.cell(r, c).value!r}" for c in left))
    for r in rows:
        for c in cols:
            cell = ws.cell(r, c)
            if cell.value is None:
                continue
            (formulas_seen if formula_text(cell.value) else values_seen).append((ws, cell))
    print("  merged ranges touching the target:",
          [str(m) for m in ws.merged_cells.ranges if m.min_col <= cols[-1] and m.max_col >= cols[0]][:MERGED_RANGES_AT_TARGET]
          or "none")

print("\n=== ANSWER POSITION CURRENT CONTENT ===")
for ws, cell in (formulas_seen + values_seen)[:MAX_CELLS_SHOWN]:
    print(f"  '{ws.title}'!{cell.coordinate}: {describe(cell)}")
if formulas_seen:
    print("FORMAT REFERENCE: the answer position already holds FORMULAS; the solution must generate FORMULAS in the same pattern.")
    for ws, cell in formulas_seen[:FORMULA_EXAMPLES]:
        print(f"  example '{ws.title}'!{cell.coordinate}: {formula_text(cell.value)}")
        for ref in re.findall(r"(?<![A-Za-z])\$?([A-Z]{1,3})\$?(\d+)(?!\d)", formula_text(cell.value))[:REFERENCES_PER_FORMULA]:
            ref_cell = ws[f"{ref[0]}{ref[1]}"]
            print(f"    referenced {ref[0]}{ref[1]}: {describe(ref_cell)}")
elif values_seen:
    print("FORMAT REFERENCE: the answer position already holds VALUES (no formulas); match their type and format.")
else:
    print("Answer position is empty.")
