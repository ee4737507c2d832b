# DSBench's workbook text, as its model-only runner builds it: every sheet parsed by pandas (first row = header),
# `to_string(index=False)`. Runs inside the sandbox (workbooks are untrusted input) with the work dir as cwd.
# Reads dsbench_names.json (workbook file names, in order); writes dsbench_workbook.txt, or dsbench_error.json.
import json
import os

os.chdir(os.environ.get("DSBENCH_WORKDIR", "."))
import pandas as pd

names = json.load(open("dsbench_names.json", encoding="utf-8"))
out = ""
for name in names:
    try:
        xls = pd.ExcelFile(name)
        text = ""
        for sheet_name in xls.sheet_names:
            df = xls.parse(sheet_name)
            text += f"Sheet name: {sheet_name}\n{df.to_string(index=False)}\n\n"
    except Exception as e:  # an unreadable, encrypted or unsupported workbook: reported with its name
        with open("dsbench_error.json", "w", encoding="utf-8") as f:
            json.dump({"file": name, "error": f"{type(e).__name__}: {e}"}, f)
        break
    out += f"The excel file {name} is: " + text
else:
    with open("dsbench_workbook.txt", "w", encoding="utf-8") as f:
        f.write(out)
