"""Independent oracle for the TypeScript evaluator: the official SpreadsheetBench scoring rules, run with real openpyxl.

The functions below are a faithful port of RUCKBReasoning/SpreadsheetBench `evaluation/evaluation.py`
(read at commit 03242e9678e4d1502ab625aa848361e73c1a6717; copyright the SpreadsheetBench authors). Changes from the
original: the colour checks in `cell_level_compare` are behind a flag (off by default, as in the official HEAD, which
commented them out on 2025-10-09), the per-case main-loop `try/except` is kept but works on a job list read from
stdin instead of the hard-coded dataset paths, and a `parse` mode classifies answer_position strings by running the
same parsing code against blank sheets.

Usage:  python official_eval.py score  < jobs.json   (jobs: [{answer, output, answer_position, instruction_type}])
        python official_eval.py parse  < positions.json  (a list of answer_position strings)
Writes JSON to stdout.
"""
import datetime
import json
import os
import sys

import openpyxl

COLOUR = os.environ.get("ORACLE_COLOUR") == "1"


def datetime_to_float(dt):
    excel_start_date = datetime.datetime(1899, 12, 30)
    delta = dt - excel_start_date
    return delta.days + delta.seconds / 86400.0


def transform_value(v):
    if isinstance(v, (int, float)):
        v = round(float(v), 2)
    elif isinstance(v, datetime.time):
        v = str(v)[:-3]
    elif isinstance(v, datetime.datetime):
        v = round(datetime_to_float(v), 0)
    elif isinstance(v, str):
        try:
            v = round(float(v), 2)
        except ValueError:
            pass
    return v


def compare_cell_value(v1, v2):
    v1 = transform_value(v1)
    v2 = transform_value(v2)
    if (v1 == "" and v2 is None) or (v1 is None and v2 == ""):
        return True
    if (v1 == "" and v2 == "") or (v1 is None and v2 is None):
        return True
    if type(v1) != type(v2):
        return False
    if v1 == v2:
        return True
    else:
        return False


def _get_color_rgb(color) -> str:
    if color and isinstance(color.rgb, str):
        return color.rgb
    return "00000000"


def _compare_colors(color1, color2) -> bool:
    rgb1 = _get_color_rgb(color1)
    rgb2 = _get_color_rgb(color2)
    return rgb1[-6:] == rgb2[-6:]


def compare_fill_color(fill1, fill2) -> bool:
    return _compare_colors(fill1.fgColor, fill2.fgColor) and _compare_colors(fill1.bgColor, fill2.bgColor)


def compare_font_color(font_gt, font_proc) -> bool:
    return _compare_colors(font_gt.color, font_proc.color)


def col_num2name(n):
    name = ''
    while n > 0:
        n, remainder = divmod(n - 1, 26)
        name = chr(65 + remainder) + name
    return name


def col_name2num(name):
    num = 0
    for c in name:
        num = num * 26 + (ord(c) - ord('A') + 1)
    return num


def parse_cell_range(range_str):
    start_cell, end_cell = range_str.split(':')
    start_col, start_row = '', ''
    for char in start_cell:
        if char.isdigit():
            start_row += char
        else:
            start_col += char
    end_col, end_row = '', ''
    for char in end_cell:
        if char.isdigit():
            end_row += char
        else:
            end_col += char
    return (col_name2num(start_col), int(start_row)), (col_name2num(end_col), int(end_row))


def generate_cell_names(range_str):
    if ':' not in range_str:
        return [range_str]
    (start_col, start_row), (end_col, end_row) = parse_cell_range(range_str)
    columns = [col_num2name(i) for i in range(start_col, end_col + 1)]
    cell_names = [f"{col}{row}" for col in columns for row in range(start_row, end_row + 1)]
    return cell_names


def cell_level_compare(wb_gt, wb_proc, sheet_name, cell_range):
    if sheet_name not in wb_proc:
        return False, "worksheet not found"
    ws_gt = wb_gt[sheet_name]
    ws_proc = wb_proc[sheet_name]
    cell_names = generate_cell_names(cell_range)
    for cell_name in cell_names:
        cell_gt = ws_gt[cell_name]
        cell_proc = ws_proc[cell_name]
        if not compare_cell_value(cell_gt.value, cell_proc.value):
            return False, f"Value difference at cell {cell_gt.coordinate}: ws_gt has {cell_gt.value!r}, ws_proc has {cell_proc.value!r}"
        if COLOUR and not compare_fill_color(cell_gt.fill, cell_proc.fill):
            return False, f"Fill color difference at cell {cell_gt.coordinate}"
        if COLOUR and not compare_font_color(cell_gt.font, cell_proc.font):
            return False, f"Font color difference at cell {cell_gt.coordinate}"
    return True, ""


def compare_workbooks(gt_file, proc_file, instruction_type, answer_position):
    if not os.path.exists(proc_file):
        return False, "File not exist"
    try:
        wb_gt = openpyxl.load_workbook(filename=gt_file, data_only=True)
        wb_proc = openpyxl.load_workbook(filename=proc_file, data_only=True)
    except Exception as e:
        return False, str(e)
    sheet_cell_ranges = answer_position.split(',')
    result_list = []
    msg_list = []
    for sheet_cell_range in sheet_cell_ranges:
        if '!' in sheet_cell_range:
            sheet_name, cell_range = sheet_cell_range.split('!')
            sheet_name = sheet_name.lstrip("'").rstrip("'")
        else:
            sheet_name = wb_gt.sheetnames[0]
            cell_range = sheet_cell_range
        sheet_name = sheet_name.lstrip("'").rstrip("'")
        cell_range = cell_range.lstrip("'").rstrip("'")
        result, msg = cell_level_compare(wb_gt, wb_proc, sheet_name, cell_range)
        result_list.append(result)
        msg_list.append(msg)
    # the official script returns "" as message; the first failure message is kept here for debugging only
    return all(result_list), next((m for m in msg_list if m), "")


def score(jobs):
    out = []
    for job in jobs:
        try:
            result, msg = compare_workbooks(job["answer"], job["output"], job.get("instruction_type", ""), job["answer_position"])
        except Exception as e:  # the official main loop: any exception -> 0
            result, msg = False, f"exception {type(e).__name__}: {e}"
        out.append({"pass": bool(result), "msg": msg})
    return out


def classify(answer_position):
    """ok / vacuous / error for one answer_position, running the official parser against blank sheets."""
    wb = openpyxl.Workbook()
    ws = wb.active
    category = "ok"
    for piece in answer_position.split(','):
        try:
            if '!' in piece:
                sheet_name, cell_range = piece.split('!')
            else:
                cell_range = piece
            cell_range = cell_range.lstrip("'").rstrip("'")
            names = generate_cell_names(cell_range)
            for name in names:
                ws[name].value
        except Exception:
            return "error"
        if len(names) == 0:
            category = "vacuous"
    return category


if __name__ == "__main__":
    payload = json.load(sys.stdin)
    if sys.argv[1] == "score":
        json.dump(score(payload), sys.stdout)
    elif sys.argv[1] == "parse":
        json.dump([classify(p) for p in payload], sys.stdout)
    else:
        raise SystemExit("usage: official_eval.py score|parse < input.json")
