"""Generates the bundled sample dataset (data/sample) in the official SpreadsheetBench format.

Run with the sandbox Python: .tools/sandbox-py/bin/python data/make_sample.py
Three small tasks, three test cases each; answers hold plain values (what a recalculated workbook would cache).
"""
import json
import os
import random

from openpyxl import Workbook

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample")


def save(wb, task_id, n, kind):
    folder = os.path.join(HERE, "spreadsheet", str(task_id))
    os.makedirs(folder, exist_ok=True)
    wb.save(os.path.join(folder, f"{n}_{task_id}_{kind}.xlsx"))


def sales_sheet(rng):
    wb = Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Item", "Amount"])
    amounts = [rng.randint(10, 500) for _ in range(5)]
    for i, a in enumerate(amounts):
        ws.append([f"Item {i + 1}", a])
    return wb, amounts


def task_total(rng, n):
    wb, amounts = sales_sheet(rng)
    save(wb, 1001, n, "input")
    wb["Sales"]["A7"] = "Total"
    wb["Sales"]["B7"] = sum(amounts)
    save(wb, 1001, n, "answer")


def task_line_totals(rng, n):
    wb = Workbook()
    ws = wb.active
    ws.title = "Orders"
    ws.append(["Qty", "Price"])
    rows = [(rng.randint(1, 9), rng.randint(2, 40)) for _ in range(5)]
    for q, p in rows:
        ws.append([q, p])
    save(wb, "2001-1", n, "input")
    ws["C1"] = "Total"
    for i, (q, p) in enumerate(rows, start=2):
        ws.cell(row=i, column=3, value=q * p)
    save(wb, "2001-1", n, "answer")


def task_count_region(rng, n):
    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Region", "Units", "", "Region", "Count"])
    regions = [rng.choice(["East", "West", "North"]) for _ in range(8)]
    for r in regions:
        ws.append([r, rng.randint(1, 20)])
    ws["D2"] = "East"
    save(wb, 1002, n, "input")
    ws["E2"] = regions.count("East")
    save(wb, 1002, n, "answer")


TASKS = [
    {
        "id": 1001,
        "instruction": "Put the word Total in A7 and the sum of the amounts in column B into B7.",
        "spreadsheet_path": "spreadsheet/1001",
        "instruction_type": "Cell-Level Manipulation",
        "answer_position": "B7",
    },
    {
        "id": "2001-1",
        "instruction": "Add a column C with header 'Total' holding Qty times Price for every order row.",
        "spreadsheet_path": "spreadsheet/2001-1",
        "instruction_type": "Sheet-Level Manipulation",
        "answer_position": "'Orders'!C1:C6",
        "answer_sheet": "Orders",
        "data_position": "'Orders'!A1:B6",
    },
    {
        "id": 1002,
        "instruction": "In E2, count how many rows in column A have the region named in D2.",
        "spreadsheet_path": "spreadsheet/1002",
        "instruction_type": "Cell-Level Manipulation",
        "answer_position": "E2",
    },
]

if __name__ == "__main__":
    rng = random.Random(20261122)
    for n in (1, 2, 3):
        task_total(rng, n)
        task_line_totals(rng, n)
        task_count_region(rng, n)
    with open(os.path.join(HERE, "dataset.json"), "w", encoding="utf-8") as f:
        json.dump(TASKS, f, indent=2, ensure_ascii=False)
    print(f"wrote {len(TASKS)} tasks to {HERE}")
