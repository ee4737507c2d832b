# SheetCopilot stage 5: reads the answer cells of a (recalculated) output workbook and flags suspicious patterns.
# The harness prepends OUTPUT_PATH, INPUT_PATH, TARGETS (parsed answer_position pieces) and RECALCULATED.
# Prints one JSON object: per-piece summaries, flags, samples of input vs output content.
import json
import openpyxl
from openpyxl.utils import get_column_letter

SAMPLES_PER_PIECE = 10  # answer cells (and the same input cells) the validation prompt shows, as the reference fork did
# A pattern is suspicious only when it cannot be a plausible answer: one 0 can be right, two equal values often are.
MIN_VALUES_ALL_ZEROS = 2
MIN_VALUES_ALL_SAME = 3
ERROR_VALUES = ("#NAME?", "#REF!", "#VALUE!", "#DIV/0!", "#N/A", "#NUM!", "#NULL!", "#SPILL!", "Err:")
values_wb = openpyxl.load_workbook(OUTPUT_PATH, data_only=True)
formulas_wb = openpyxl.load_workbook(OUTPUT_PATH)
input_wb = openpyxl.load_workbook(INPUT_PATH)
report = {"recalculated": RECALCULATED, "pieces": [], "flags": []}


def flag(kind, detail):
    report["flags"].append({"kind": kind, "detail": detail})


def sheet_for(wb, piece):
    name = piece["sheet"] if piece["sheet"] is not None else wb.worksheets[0].title
    return wb[name] if name in wb.sheetnames else None


for piece in TARGETS:
    if piece["kind"] == "error":
        continue
    vws, fws, iws = sheet_for(values_wb, piece), sheet_for(formulas_wb, piece), sheet_for(input_wb, piece)
    if vws is None:
        flag("MISSING_SHEET", f"{piece['raw']}: sheet {piece['sheet']!r} is not in the output")
        continue
    last_row = piece["rowEnd"] if piece["kind"] == "cells" else vws.max_row
    first_row = piece["rowStart"] if piece["kind"] == "cells" else 1
    cells = [(r, c) for r in range(first_row, last_row + 1) for c in range(piece["colStart"], piece["colEnd"] + 1)]
    values = [vws.cell(r, c).value for r, c in cells]
    formulas = [getattr(fws.cell(r, c).value, "text", fws.cell(r, c).value) for r, c in cells]
    has_formulas = any(isinstance(f, str) and f.startswith("=") for f in formulas)
    non_empty = [v for v in values if v not in (None, "")]
    numbers = [v for v in non_empty if isinstance(v, (int, float)) and not isinstance(v, bool)]
    summary = {
        "piece": piece["raw"], "sheet": vws.title, "cells": len(cells), "nonEmpty": len(non_empty),
        "unique": len({repr(v) for v in non_empty}), "hasFormulas": has_formulas,
        "samples": [f"{get_column_letter(c)}{r}: value={v!r} formula={f!r}" for (r, c), v, f in list(zip(cells, values, formulas))[:SAMPLES_PER_PIECE]],
        "inputSamples": [f"{get_column_letter(c)}{r}: {iws.cell(r, c).value!r}" for r, c in cells[:SAMPLES_PER_PIECE]] if iws is not None else [],
    }
    if numbers:
        summary.update({"min": min(numbers), "max": max(numbers), "mean": sum(numbers) / len(numbers)})
    report["pieces"].append(summary)
    errors = [v for v in non_empty if isinstance(v, str) and v.startswith(ERROR_VALUES)]
    if errors:
        flag("CALC_ERROR", f"{piece['raw']}: {len(errors)} cells show errors, e.g. {errors[0]}")
    if not non_empty:
        if has_formulas and not RECALCULATED:
            flag("NOT_RECALCULATED", f"{piece['raw']}: formulas without cached values (no recalculation engine)")
        else:
            flag("EMPTY_RESULT", f"{piece['raw']}: every answer cell is empty")
    elif len(numbers) == len(non_empty) and all(n == 0 for n in numbers) and len(numbers) >= MIN_VALUES_ALL_ZEROS:
        flag("ALL_ZEROS", f"{piece['raw']}: all {len(numbers)} answer values are 0")
    elif len(non_empty) >= MIN_VALUES_ALL_SAME and summary["unique"] == 1:
        flag("ALL_SAME", f"{piece['raw']}: all {len(non_empty)} answer values are {non_empty[0]!r}")
    if any(isinstance(f, str) and "@" in f for f in formulas if isinstance(f, str) and f.startswith("=")):
        flag("INVALID_AT_SYMBOL", f"{piece['raw']}: a formula contains '@'")
    if piece["colStart"] == piece["colEnd"] and iws is not None:
        c = piece["colEnd"] + 1
        leaked = [r for r, _ in cells if vws.cell(r, c).value not in (None, "") and iws.cell(r, c).value in (None, "")]
        if leaked:
            flag("NEIGHBOUR_LEAK", f"{piece['raw']}: {len(leaked)} cells next to the target column ({get_column_letter(c)}) were filled")

print(json.dumps(report, default=str))
