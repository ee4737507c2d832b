"""Spreadsheet preview exactly as the official SpreadsheetBench inference builds it (pandas, header row 1, head(N))."""
import sys

import pandas as pd


def preview(path: str, rows: int) -> str:
    excel_file = pd.ExcelFile(path)
    out = ""
    for sheet_name in excel_file.sheet_names:
        df = excel_file.parse(sheet_name)
        n = rows if df.shape[0] > rows else df.shape[0]
        out += f"Sheet Name: {sheet_name}\n"
        out += df.head(n).to_string() + "\n"
        out += "-" * 50 + "\n"
    return out


if __name__ == "__main__":
    sys.stdout.write(preview(sys.argv[1], int(sys.argv[2])))
